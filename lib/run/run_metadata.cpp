#include "run/run_metadata.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace kbench {

std::string current_time_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string host_cpu_description() {
  std::string model;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; model.empty() && std::getline(cpuinfo, line);) {
    // x86 says "model name", arm64 kernels only "CPU part"; the first named one stands for all.
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos) model = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  if (model.empty()) model = "CPU";
  // The threads the CPU reference's workers use (reference/parallel.hpp).
  const auto threads = static_cast<int>(std::thread::hardware_concurrency());
  return threads > 0 ? model + ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads") : model;
}

}  // namespace kbench
