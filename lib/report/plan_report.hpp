#pragma once
// `kbench plan`: what each backend would run for each workload and math mode, decided without
// running anything (Backend::plan), and how it is printed: a text listing for people, a
// `kbench.plan/1` JSON document for tools.
#include <ostream>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "core/types.hpp"

namespace kbench {

struct PlanEntry {
  std::string workload;  // its name
  std::string problem;   // describe(problem): shape, kernel, stride, ...
  std::string backend;   // as --backends names it
  std::string variant;   // the variant asked for (NAME:VARIANT), empty for the backend's own choice
  MathMode math = MathMode::fp32;
  BackendPlan plan;
};

struct PlanReport {
  PlanDevice device;
  std::string device_source;  // how the device was chosen: "device 0" or "--target h100-sxm, no device here"
  std::vector<PlanEntry> entries;
};

// Per workload, per backend and math: the kernel that runs and its facts, then the other variants
// `NAME:all` runs, then what is ruled out and why. `verbose`: every variant's facts, not the first's only.
void write_plan_text(const PlanReport& report, std::ostream& out, bool verbose);
void write_plan_json(const PlanReport& report, std::ostream& out);

}  // namespace kbench
