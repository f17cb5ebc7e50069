#include "run/math_policy.hpp"

#include <fmt/format.h>

namespace kbench {

std::vector<MathMode> math_modes_for(const ConvProblem& problem, const std::vector<MathMode>& requested) {
  if (problem.dtype == DType::fp32) return requested;
  return {MathMode::fp32};
}

MathMode reported_math(DType dtype, bool tf32_permitted) {
  return dtype == DType::fp32 && tf32_permitted ? MathMode::tf32 : MathMode::fp32;
}

std::string math_modes_note(const std::vector<Workload>& workloads, const std::vector<MathMode>& requested) {
  std::size_t collapsed = 0;
  for (const Workload& w : workloads)
    if (math_modes_for(w.problem, requested) != requested) ++collapsed;
  if (collapsed == 0) return {};
  return fmt::format(
      "{} fp16/bf16 workload{} ran once per backend at math fp32 (fp32 accumulation) whatever --math asked: "
      "fp16/bf16 products are exact in fp32 and accumulate in fp32 in every mode; tf32 rounds fp32 data only",
      collapsed, collapsed == 1 ? "" : "s");
}

}  // namespace kbench
