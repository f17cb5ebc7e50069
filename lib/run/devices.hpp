#pragma once
// `--devices all|0,2` on run and compare: one child kbench process per GPU, as nvbench's --devices,
// each running its share of the (workload, backend, math) items on its device (`--device N` plus a
// `--shard` of the run's), their JSON documents joined by merge_reports. The choices are plain data
// here, so they are tested without a GPU and without starting a process.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "run/shard.hpp"

namespace kbench {

struct DeviceSelection {
  bool all = false;
  std::vector<int> indices;  // as listed, when not all
};

// "all", or device indices "0,2" (decimal, 0 to max_device, each once); throws InputError naming --devices.
DeviceSelection parse_devices(std::string_view text, int max_device);

// The devices to run on. `present` are the indices this machine has (empty: none, `why_none` says why).
// "all" with none present, a listed index that is not present, or several listed with no device at all are
// InputErrors naming --devices. One listed device is returned as it is (a run on it, as --device N).
std::vector<int> resolve_devices(const DeviceSelection& selection, const std::vector<int>& present,
                                 const std::string& why_none);

// The shard the i-th (0-based) of k children runs within the run's own shard K/N: the items of K/N
// dealt round-robin to the children, which is shard K + N*i of N*k. Throws InputError when N*k is over
// the shard limit.
Shard child_shard(const Shard& run, int child, int children);

// A child's command line: the parent's (argv[0] first), less --devices, --device, --shard, --seed,
// --format and --output in any spelling, plus `--device D --shard S --seed SEED --format json --output
// FILE`, so every child measures as the parent was asked to and writes a document merge can join.
std::vector<std::string> child_arguments(const std::vector<std::string>& argv, int device, const Shard& shard,
                                         std::uint64_t seed, const std::string& output);

}  // namespace kbench
