// `kbench info`: what this binary was built with and which devices it sees.
#include <fmt/format.h>

#include "commands.hpp"
#include "gpu_environment.hpp"
#include "number_flags.hpp"

namespace kbench::cli {

Command add_info_command(CLI::App&) {
  return {[] {},
          [] {
            for (const auto& [key, value] : build_and_device_info()) fmt::print("{:<22} {}\n", key + ":", value);
            return 0;
          }};
}

Command add_calibrate_command(CLI::App& app) {
  auto device = std::make_shared<int>(0);
  app.add_option("--device", *device, "CUDA device index")->capture_default_str()->check(whole_number(0, kMaxDevice));
  return {[] {}, [device] { return calibrate_and_store(*device); }};
}

}  // namespace kbench::cli
