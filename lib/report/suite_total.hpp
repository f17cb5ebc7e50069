#pragma once
// The suite total weighted by each workload's `count` (how many times its model runs it): per backend
// and math mode, the sum of count x median over the workloads it timed. A model imported layer by layer
// (scripts/import-torchvision.py) reads as the model's convolution time.
#include <string>
#include <vector>

#include "run/result.hpp"

namespace kbench::report {

struct SuiteTotal {
  std::string label;          // "cudnn tf32", "cudnn:IMPLICIT_GEMM fp32": the backend as asked for
  double weighted_s = 0;      // sum of count x median over the workloads timed
  std::size_t timed = 0;      // workloads with a timed, verified result
  std::size_t workloads = 0;  // workloads in the report (summarized, or named by a result)
};

// Whether any workload has a count other than 1 (reports show the weighted total only then).
bool has_counts(const RunReport& report);

// One entry per result label, in order of first appearance.
std::vector<SuiteTotal> suite_totals(const RunReport& report);

}  // namespace kbench::report
