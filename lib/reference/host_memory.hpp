#pragma once
// How much host memory a new allocation can take without swapping: Linux's MemAvailable estimate.
#include <cstdint>
#include <optional>
#include <string_view>

namespace kbench::reference {

// MemAvailable from the text of /proc/meminfo, in bytes; nullopt when the line is missing or malformed.
std::optional<std::int64_t> parse_mem_available(std::string_view meminfo);

// MemAvailable of this machine now; nullopt where /proc/meminfo cannot be read (not Linux).
std::optional<std::int64_t> available_host_memory();

}  // namespace kbench::reference
