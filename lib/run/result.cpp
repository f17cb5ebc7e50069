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
  for (const auto& summary : workloads)
    if (summary.workload.name == name) return &summary;
  return nullptr;
}

}  // namespace kbench
