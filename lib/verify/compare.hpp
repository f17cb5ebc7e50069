#pragma once
// Element-wise comparison of a backend's output with the fp64 reference.
#include <cstdint>
#include <span>

#include "verify/tolerance.hpp"

namespace kbench {

struct Comparison {
  std::int64_t checked = 0;
  std::int64_t mismatches = 0;  // NaN and Inf count as mismatches
  double max_abs_error = 0;
  double max_rel_error = 0;          // |got - ref| / |ref|, over elements with ref != 0
  std::int64_t first_mismatch = -1;  // position in the compared arrays, -1 if none
  double first_mismatch_got = 0;
  double first_mismatch_expected = 0;
  bool passed() const { return mismatches == 0 && checked > 0; }
};

Comparison compare_outputs(std::span<const float> got, std::span<const double> expected, const Tolerance& tolerance);

}  // namespace kbench
