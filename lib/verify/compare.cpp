#include "verify/compare.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kbench {

Comparison compare_outputs(std::span<const float> got, std::span<const double> expected, const Tolerance& tolerance) {
  if (got.size() != expected.size()) throw std::invalid_argument("compare_outputs: sizes differ");
  Comparison c;
  c.checked = static_cast<std::int64_t>(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i];
    const double e = expected[i];
    const double abs_error = std::abs(g - e);
    // NaN compares false everywhere, so test for the good case and count everything else.
    const bool within = std::isfinite(g) && abs_error <= tolerance.atol + tolerance.rtol * std::abs(e);
    if (std::isfinite(abs_error)) {
      c.max_abs_error = std::max(c.max_abs_error, abs_error);
      if (e != 0) c.max_rel_error = std::max(c.max_rel_error, abs_error / std::abs(e));
    } else {
      c.max_abs_error = abs_error;  // NaN or Inf: the worst there is, and it sticks
      c.max_rel_error = abs_error;
    }
    if (!within) {
      if (c.mismatches == 0) {
        c.first_mismatch = static_cast<std::int64_t>(i);
        c.first_mismatch_got = g;
        c.first_mismatch_expected = e;
      }
      ++c.mismatches;
    }
  }
  return c;
}

}  // namespace kbench
