#pragma once
// Element-wise comparison of a backend's output with the fp64 reference.
#include <cstdint>
#include <span>
#include <vector>

#include "verify/error_bound.hpp"
#include "verify/tolerance.hpp"

namespace kbench {

struct Comparison {
  std::int64_t checked = 0;
  std::int64_t mismatches = 0;  // NaN and Inf count as mismatches
  double max_abs_error = 0;
  double max_rel_error = 0;          // |got - ref| / |ref|, over elements with ref != 0
  double max_error_ratio = 0;        // |got - ref| / allowed: how close the worst element came (> 1 fails)
  std::int64_t first_mismatch = -1;  // position in the compared arrays, -1 if none
  double first_mismatch_got = 0;
  double first_mismatch_expected = 0;
  double first_mismatch_allowed = 0;
  bool passed() const { return mismatches == 0 && checked > 0; }
};

// The reference at the compared elements: values, and for an error bound each element's S = sum |x*w|
// and Q = sqrt(sum (x*w)^2) (verify/error_bound.hpp); S and Q may be empty when only a fixed tolerance
// is used. `biases`: the bias each element's value includes, needed by a bound whose backend adds the
// bias after rounding (OutputRounding::bias_added_after); may be empty otherwise.
struct ExpectedValues {
  std::span<const double> values;
  std::span<const double> abs_sums;
  std::span<const double> root_sum_squares;
  std::span<const double> biases = {};
};

// The bias added to each of the computed tensor's elements at `points` (flat indices; empty: every
// element), as the reference adds it: the seeded bias of the element's output channel, rounded to the
// dtype. Empty when the problem adds no bias (adds_bias).
std::vector<double> biases_at(const ConvProblem& problem, std::uint64_t seed, std::span<const std::int64_t> points);

// |got - ref| <= atol + rtol * |ref| per element (--atol/--rtol, KernelBench's rule).
Comparison compare_outputs(std::span<const float> got, std::span<const double> expected, const Tolerance& tolerance);

// |got - ref| <= bound.allowed(ref, S, Q, bias) per element. Throws std::invalid_argument without S and Q,
// or without the biases where the bound counts a rounding before the bias.
Comparison compare_outputs(std::span<const float> got, const ExpectedValues& expected, const ErrorBound& bound);

}  // namespace kbench
