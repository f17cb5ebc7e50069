#pragma once
#include "core/types.hpp"

namespace kbench {

// |got - ref| <= atol + rtol * |ref|, per element.
struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-4;
};

// 1e-4 for strict fp32 (KernelBench's current fp32 tolerance), 1e-2 where TF32 rounding is allowed.
Tolerance default_tolerance(MathMode math);

}  // namespace kbench
