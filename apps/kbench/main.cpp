// kbench: benchmarks convolution kernels (ours, cuDNN, a CPU reference) against the roofline floor.
#include <iostream>
#include <map>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"kbench: benchmark convolution kernels against cuDNN, a CPU reference and the roofline floor"};
  app.set_version_flag("--version", std::string("kbench ") + KBENCH_VERSION);
  app.require_subcommand(1);

  std::map<CLI::App*, kbench::cli::Command> commands;
  const auto add = [&](const char* name, const char* help, auto adder) {
    CLI::App* sub = app.add_subcommand(name, help);
    commands[sub] = adder(*sub);
  };
  add("run", "Run workloads on backends, verify, time and report", kbench::cli::add_run_command);
  add("compare", "Run workloads on several backends and set them side by side", kbench::cli::add_compare_command);
  add("list", "List workloads, backends and known GPUs", kbench::cli::add_list_command);
  add("plan", "Show which kernel each backend would run for each workload, and why, without running it",
      kbench::cli::add_plan_command);
  add("info", "Show the build configuration and the devices found", kbench::cli::add_info_command);
  add("calibrate", "Measure this GPU's copy bandwidth and FP32/TF32 rates and store them", kbench::cli::add_calibrate_command);
  add("diff", "Compare two results files: faster, slower, same or unclear per result", kbench::cli::add_diff_command);
  add("report", "Render results files as an HTML report (--html) or in another format", kbench::cli::add_report_command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help or the usage error
    return code == 0 ? 0 : kbench::exit_bad_input;
  }
  try {
    for (const auto& [sub, command] : commands)
      if (sub->parsed()) return command();
  } catch (const kbench::InputError& e) {
    std::cerr << "kbench: error: " << e.what() << '\n';
    return kbench::exit_bad_input;
  } catch (const std::exception& e) {
    std::cerr << "kbench: failed: " << e.what() << '\n';
    return kbench::exit_result_failed;
  }
  return kbench::exit_bad_input;
}
