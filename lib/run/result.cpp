#include "run/result.hpp"

#include <fmt/format.h>

namespace kbench {

std::string_view to_string(ResultDevice device) { return device == ResultDevice::cpu ? "cpu" : "gpu"; }

std::string_view to_string(ResultStatus status) {
  switch (status) {
    case ResultStatus::ok: return "ok";
    case ResultStatus::wrong: return "wrong";
    case ResultStatus::failed: return "failed";
    case ResultStatus::unsupported: return "unsupported";
    case ResultStatus::unavailable: return "unavailable";
    case ResultStatus::skipped: return "skipped";
  }
  return "?";
}

std::string Verification::criterion() const {
  if (tolerance) return fmt::format("tolerance (atol {:g}, rtol {:g})", tolerance->atol, tolerance->rtol);
  if (bound) return fmt::format("the error bound ({})", bound->describe());
  return "tolerance";
}

double Result::achieved_flops(const ProblemMetrics& metrics) const {
  if (status != ResultStatus::ok || !timing || timing->stats.median <= 0) return 0;
  return metrics.flops / timing->stats.median;
}

double Result::achieved_Bps(const ProblemMetrics& metrics) const {
  if (status != ResultStatus::ok || !timing || timing->stats.median <= 0) return 0;
  return metrics.bytes() / timing->stats.median;
}

const WorkloadSummary* RunReport::find_workload(const std::string& name) const {
  if (indexed_workloads_ != workloads.size() || workload_index_.empty()) {
    workload_index_.clear();
    for (std::size_t i = 0; i < workloads.size(); ++i) workload_index_.emplace(workloads[i].workload.name, i);
    indexed_workloads_ = workloads.size();
  }
  if (const auto hit = workload_index_.find(name);
      hit != workload_index_.end() && hit->second < workloads.size() && workloads[hit->second].workload.name == name)
    return &workloads[hit->second];
  for (const auto& summary : workloads)  // not indexed under that name: renamed in place, or absent
    if (summary.workload.name == name) return &summary;
  return nullptr;
}

}  // namespace kbench
