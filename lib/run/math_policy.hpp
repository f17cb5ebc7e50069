#pragma once
// Which math modes a workload runs at. `--math fp32|tf32` is about fp32 data: TF32 rounds fp32 operands
// to 10 mantissa bits before the tensor cores multiply them. fp16 and bf16 operands need no such
// rounding: their products are exact in fp32 and every backend accumulates them in fp32, whatever the
// mode. So a half workload runs once per backend, as math fp32 (fp32 accumulation), even when both
// modes (or tf32 alone) are asked for: a second run would time the same kernel twice under two names.
#include <string>
#include <vector>

#include "core/types.hpp"
#include "spec/workload.hpp"

namespace kbench {

// The modes `problem` runs at, from those requested (in their order): fp16/bf16 -> {fp32}.
std::vector<MathMode> math_modes_for(const ConvProblem& problem, const std::vector<MathMode>& requested);

// The run's note when some workload ran at fewer modes than requested, naming how many and why; empty
// when none did.
std::string math_modes_note(const std::vector<Workload>& workloads, const std::vector<MathMode>& requested);

// The math a result reports, one rule for every backend (the runner applies it to what a prepared run
// says, and the backends state it the same way): fp16/bf16 data -> fp32, whatever the kernel (its
// products are exact in fp32 and accumulate in fp32: the same arithmetic cuDNN, torch and our GEMMs do);
// fp32 data -> tf32 where the kernel ran with TF32 permitted (a library whose TF32 switch was on and
// not withdrawn by NVIDIA_TF32_OVERRIDE=0, or a kernel that rounds to TF32 itself), else fp32.
MathMode reported_math(DType dtype, bool tf32_permitted);

// What a result's accumulation is recorded as when its backend does not say ("accumulation" property):
// fp32, as on every GPU backend kbench has, for every dtype.
inline constexpr const char* kDefaultAccumulation = "fp32";

}  // namespace kbench
