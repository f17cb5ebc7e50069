#pragma once
// What every command that reads workloads does with `--axis KEY=V1,V2` (repeatable): the workloads
// swept along each axis, as a spec's `sweep:` would (spec/sweep.hpp).
#include <string>
#include <vector>

#include "spec/sweep.hpp"
#include "spec/workload.hpp"

namespace kbench::cli {

inline std::vector<Workload> with_axes(std::vector<Workload> workloads, const std::vector<std::string>& axis_flags) {
  if (axis_flags.empty()) return workloads;
  std::vector<AxisOverride> axes;
  for (const std::string& flag : axis_flags) axes.push_back(parse_axis_flag(flag));
  return apply_axes(workloads, axes);
}

}  // namespace kbench::cli
