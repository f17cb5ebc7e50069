#include "run/planner.hpp"

#include <exception>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "problem/problem_metrics.hpp"
#include "run/math_policy.hpp"

namespace kbench {

namespace {

BackendPlan plan_or_why_not(const Backend& backend, const ConvProblem& problem, const BackendOptions& options,
                            const PlanDevice& device) {
  try {
    return backend.plan(problem, options, device);
  } catch (const std::exception& e) {
    return {Support::no(fmt::format("planning failed: {}", e.what())), {}, {}};
  }
}

// describe(), and the data when it is not fp32 nchw (so the plans of fp32 nchw workloads read as before).
std::string plan_problem_text(const ConvProblem& problem) {
  if (problem.dtype == DType::fp32 && problem.layout == Layout::nchw) return describe(problem);
  return describe(problem) + " · " + data_text(problem);
}

}  // namespace

std::vector<PlanEntry> plan_workloads(const std::vector<Workload>& workloads, const Registry& registry,
                                      const std::vector<BackendRequest>& requests, const std::vector<MathMode>& maths,
                                      const PlanDevice& device, int cuda_device) {
  for (const BackendRequest& r : requests) requested_backend(registry, r);
  std::vector<PlanEntry> entries;
  for (const Workload& w : workloads)
    for (const BackendRequest& r : requests)
      for (const MathMode math : math_modes_for(w.problem, maths)) {  // a half workload: fp32 only
        BackendOptions options;
        options.math = math;
        options.variant = r.variant;
        options.device = cuda_device;
        entries.push_back({w.name, plan_problem_text(w.problem), r.backend, r.variant, math,
                           plan_or_why_not(*registry.find(r.backend), w.problem, options, device)});
      }
  return entries;
}

}  // namespace kbench
