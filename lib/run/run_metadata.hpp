#pragma once
#include <string>

namespace kbench {

std::string current_time_iso8601();  // UTC, e.g. "2026-11-30T14:33:27Z"
std::string host_name();
// The host's CPU as results that ran on it are described: "AMD EPYC 7B13, 2 threads" (/proc/cpuinfo's
// model name, the threads this process may use).
std::string host_cpu_description();

}  // namespace kbench
