#pragma once
// `kbench plan`: every workload x backend request x math mode planned (Backend::plan) without
// running anything. report/plan_report renders the result.
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/registry.hpp"
#include "core/types.hpp"
#include "run/run_config.hpp"
#include "spec/workload.hpp"

namespace kbench {

struct PlanEntry {
  std::string workload;  // its name
  std::string problem;   // describe(problem): shape, kernel, stride, ..., then " · fp16 nhwc" unless fp32 nchw
  std::string backend;   // as --backends names it
  std::string variant;   // the variant asked for (NAME:VARIANT), empty for the backend's own choice
  MathMode math = MathMode::fp32;
  BackendPlan plan;
};

struct PlanReport {
  PlanDevice device;
  std::string device_source;  // how the device was chosen: "device 0" or "--target h100-sxm; no device here: ..."
  std::vector<PlanEntry> entries;
};

// Workload by workload, each request (NAME:all plans as NAME: a plan lists every variant), each math
// mode. A backend whose planning throws (a cuDNN call that errs) is not planned, with the error: one
// that cannot be planned never loses the others' plans. Throws InputError for a backend the registry
// does not have, before planning anything.
std::vector<PlanEntry> plan_workloads(const std::vector<Workload>& workloads, const Registry& registry,
                                      const std::vector<BackendRequest>& requests, const std::vector<MathMode>& maths,
                                      const PlanDevice& device, int cuda_device);

}  // namespace kbench
