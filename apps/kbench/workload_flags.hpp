#pragma once
// What every command that reads workloads does with `--passes P1,P2` (each workload in those passes
// instead of its spec's, spec/pass_list.hpp) and `--axis KEY=V1,V2` (repeatable: the workloads swept
// along each axis, as a spec's `sweep:` would, spec/sweep.hpp), in that order.
#include <string>
#include <vector>

#include "spec/pass_list.hpp"
#include "spec/sweep.hpp"
#include "spec/workload.hpp"

namespace kbench::cli {

inline std::vector<Workload> with_axes(std::vector<Workload> workloads, const std::vector<std::string>& axis_flags) {
  if (axis_flags.empty()) return workloads;
  std::vector<AxisOverride> axes;
  for (const std::string& flag : axis_flags) axes.push_back(parse_axis_flag(flag));
  return apply_axes(workloads, axes);
}

inline std::vector<Workload> with_passes_flag(std::vector<Workload> workloads, const std::string& passes_flag) {
  if (passes_flag.empty()) return workloads;
  return with_passes(workloads, parse_passes_flag(passes_flag));
}

// --filter REGEX: the workloads whose name the ECMAScript regex matches anywhere (google/benchmark's
// --benchmark_filter, nvbench's -b), or with a leading '-' those it does not. A bad regex, or one that
// matches nothing, is the command line's error (exit 2), naming a few of the names there are.
std::vector<Workload> filter_workloads(std::vector<Workload> workloads, const std::string& filter);
// The same check without workloads: the regex compiles (before any work).
void check_filter(const std::string& filter);

// The workloads a command works on: its specs', in --passes if given, swept along --axis, then --filter.
inline std::vector<Workload> with_workload_flags(std::vector<Workload> workloads, const std::string& passes_flag,
                                                 const std::vector<std::string>& axis_flags,
                                                 const std::string& filter = {}) {
  return filter_workloads(with_axes(with_passes_flag(std::move(workloads), passes_flag), axis_flags), filter);
}

}  // namespace kbench::cli
