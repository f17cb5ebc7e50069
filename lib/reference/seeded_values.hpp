#pragma once
// Operand values drawn from the seed one at a time (the same values data::make_host_tensors stores),
// as the gathers of reference/gather.hpp and backward_conv.cpp read them, and the gather of many
// output elements spread over threads.
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "data/counter_rng.hpp"
#include "problem/conv_problem.hpp"
#include "reference/reference_conv.hpp"

namespace kbench::reference {

struct SeededValues {
  DType dtype;
  std::uint64_t seed;
  float bound;
  Terms terms;
  // The role whose values sit where a forward gather reads its input: grad_output for a backward-data
  // pass computed as the forward convolution of dy.
  data::TensorRole input_role = data::TensorRole::input;

  double input(std::int64_t i) const { return value(input_role, i); }
  double weight(std::int64_t i) const { return value(data::TensorRole::weight, i); }
  double bias(std::int64_t i) const { return value(data::TensorRole::bias, i); }
  double grad_output(std::int64_t i) const { return value(data::TensorRole::grad_output, i); }
  double value(data::TensorRole role, std::int64_t i) const {
    const double v = data::draw_as(dtype, seed, role, static_cast<std::uint64_t>(i), bound);
    return terms == Terms::value ? v : terms == Terms::magnitude ? std::abs(v) : v * v;
  }
};

// Forward output elements of `p` at the given flat indices (checked by the caller), from `values`.
std::vector<double> gather_outputs(const ConvProblem& p, const SeededValues& values,
                                   std::span<const std::int64_t> indices);

}  // namespace kbench::reference
