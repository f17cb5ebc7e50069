#pragma once
// Memory said before it runs out. Before a result allocates, the runner adds up the host buffers it
// will hold (the backend's tensors where it computes on the host, the fp64 reference of a full check,
// the output read back, a --dump copy) and skips the result with the figures where they exceed what the
// machine has (reference/host_memory.hpp: MemAvailable and cgroup limits); a GPU backend's fits() does
// the same for device memory with cudaMemGetInfo's free and total. The decisions are pure functions of
// the figures, so they are unit-tested without a small machine or a GPU.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/support.hpp"

namespace kbench {

// "16.9 GB", "512.0 MB", "11.5 KB", "512 bytes": decimal units, as free(1) -h --si and nvidia-smi's GB.
std::string format_memory(double bytes);

// What a result will hold on the host, part by part.
struct HostMemoryNeed {
  std::vector<std::pair<std::string, double>> parts;  // ("the fp64 reference of the full check", bytes)
  void add(std::string what, double bytes);
  double total() const;
};

// Yes when `need` fits in `available` (or when nothing could be read: the allocation decides); else no,
// with "needs 16.9 GB of host memory (8.5 GB for ..., 8.4 GB for ...), 6.0 GB available (SOURCE)".
Support host_memory_fits(const HostMemoryNeed& need, std::optional<std::int64_t> available,
                         const std::string& source);

// Yes when `needed` bytes fit in the device's `free` bytes; else no, with the figures:
// "needs 3.2 GB of device memory, 1.1 GB free on device 0 (of 80.0 GB)".
Support device_memory_fits(std::int64_t needed, std::int64_t free, std::int64_t total, int device);

// The peak resident set of this process so far (getrusage's ru_maxrss); nullopt where unknown.
std::optional<std::int64_t> peak_rss_bytes();

}  // namespace kbench
