#include "verify/compare.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "data/host_tensors.hpp"

namespace kbench {

namespace {

// `allowed(i)`: the largest error element i may have.
template <class Allowed>
Comparison compare_each(std::span<const float> got, std::span<const double> expected, const Allowed& allowed) {
  if (got.size() != expected.size()) throw std::invalid_argument("compare_outputs: sizes differ");
  Comparison c;
  c.checked = static_cast<std::int64_t>(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i];
    const double e = expected[i];
    const double abs_error = std::abs(g - e);
    const double limit = allowed(i);
    // NaN compares false everywhere, so test for the good case and count everything else.
    const bool within = std::isfinite(g) && abs_error <= limit;
    if (std::isfinite(abs_error)) {
      c.max_abs_error = std::max(c.max_abs_error, abs_error);
      if (e != 0) c.max_rel_error = std::max(c.max_rel_error, abs_error / std::abs(e));
      if (limit > 0) c.max_error_ratio = std::max(c.max_error_ratio, abs_error / limit);
    } else {
      c.max_abs_error = abs_error;  // NaN or Inf: the worst there is, and it sticks
      c.max_rel_error = abs_error;
      c.max_error_ratio = abs_error;
    }
    if (!within) {
      if (c.mismatches == 0) {
        c.first_mismatch = static_cast<std::int64_t>(i);
        c.first_mismatch_got = g;
        c.first_mismatch_expected = e;
        c.first_mismatch_allowed = limit;
      }
      ++c.mismatches;
    }
  }
  return c;
}

}  // namespace

Comparison compare_outputs(std::span<const float> got, std::span<const double> expected, const Tolerance& tolerance) {
  return compare_each(got, expected,
                      [&](std::size_t i) { return tolerance.atol + tolerance.rtol * std::abs(expected[i]); });
}

Comparison compare_outputs(std::span<const float> got, const ExpectedValues& expected, const ErrorBound& bound) {
  if (expected.abs_sums.size() != expected.values.size() || expected.root_sum_squares.size() != expected.values.size())
    throw std::invalid_argument("compare_outputs: an error bound needs S and Q for every element");
  if (bound.output_rounding == OutputRounding::bias_added_after && expected.biases.size() != expected.values.size())
    throw std::invalid_argument("compare_outputs: a bound with the bias added after rounding needs every element's bias");
  return compare_each(got, expected.values, [&](std::size_t i) {
    const double bias = expected.biases.empty() ? 0.0 : expected.biases[i];
    return bound.allowed(expected.values[i], expected.abs_sums[i], expected.root_sum_squares[i], bias);
  });
}

std::vector<double> biases_at(const ConvProblem& problem, std::uint64_t seed, std::span<const std::int64_t> points) {
  if (!adds_bias(problem)) return {};
  std::vector<double> per_channel;
  for (std::int64_t c = 0; c < problem.out_channels; ++c)
    per_channel.push_back(data::seeded_value(problem, seed, data::TensorRole::bias, c));
  const std::int64_t spatial = problem.output_spatial_volume();
  const auto bias_of = [&](std::int64_t flat) {
    return per_channel[static_cast<std::size_t>((flat / spatial) % problem.out_channels)];
  };
  std::vector<double> out;
  if (points.empty()) {
    out.reserve(static_cast<std::size_t>(problem.output_elements()));
    for (std::int64_t flat = 0; flat < problem.output_elements(); ++flat) out.push_back(bias_of(flat));
  } else {
    out.reserve(points.size());
    for (const std::int64_t flat : points) out.push_back(bias_of(flat));
  }
  return out;
}

}  // namespace kbench
