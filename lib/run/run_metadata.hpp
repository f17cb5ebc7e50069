#pragma once
#include <string>

namespace kbench {

std::string current_time_iso8601();  // UTC, e.g. "2026-11-30T14:33:27Z"
std::string host_name();

}  // namespace kbench
