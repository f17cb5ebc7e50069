#pragma once
// How much host memory a new allocation can take without swapping or meeting the OOM killer: the least
// of Linux's MemAvailable and, where this process's cgroup (v2 memory.max, v1 memory.limit_in_bytes, or
// an ancestor's) sets a limit, that limit less what the cgroup holds (its usage less the inactive file
// cache, which the kernel reclaims first, as the kubelet counts a working set). A cgroup's limit is what
// a container, a Slurm job or `systemd-run -p MemoryMax=` imposes, and MemAvailable does not see it.
//
// Test-only: KBENCH_TEST_HOST_MEMORY_AVAILABLE=BYTES (a decimal byte count) replaces the figure, so a
// test can make a run see a small machine; anything but a whole decimal number is refused.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kbench::reference {

inline constexpr const char* kHostMemoryTestVariable = "KBENCH_TEST_HOST_MEMORY_AVAILABLE";

// MemAvailable from the text of /proc/meminfo, in bytes; nullopt when the line is missing or malformed.
std::optional<std::int64_t> parse_mem_available(std::string_view meminfo);

// A cgroup memory file's number ("8589934592\n"); nullopt for "max" (no limit) or anything else. A v1
// "no limit" is a number near 2^63: values of 2^60 and more read as no limit too.
std::optional<std::int64_t> parse_cgroup_bytes(std::string_view text);

// `key`'s value in a memory.stat text ("inactive_file 1234"); nullopt where it is absent.
std::optional<std::int64_t> parse_memory_stat(std::string_view stat, std::string_view key);

// From /proc/self/cgroup's text: the v2 path ("0::/user.slice/x" -> "/user.slice/x") or the v1 memory
// controller's ("4:memory:/docker/abc" -> "/docker/abc"); nullopt where the line is absent.
std::optional<std::string> cgroup_v2_path(std::string_view proc_self_cgroup);
std::optional<std::string> cgroup_v1_memory_path(std::string_view proc_self_cgroup);

// What a cgroup leaves: limit - (usage - inactive file cache), at least 0.
std::int64_t cgroup_headroom(std::int64_t limit, std::int64_t usage, std::int64_t inactive_file);

// The figure above for this process now; nullopt where nothing can be read (not Linux). Throws
// std::invalid_argument naming the variable when the test variable is set to something else than bytes.
std::optional<std::int64_t> available_host_memory();

// Where that figure came from, for messages: "MemAvailable", "the cgroup /x's memory.max of 8.0 GB",
// "KBENCH_TEST_HOST_MEMORY_AVAILABLE".
std::string available_host_memory_source();

}  // namespace kbench::reference
