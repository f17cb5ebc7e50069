#pragma once
// ConvProblem construction for the tests that run kernels (GPU tests, CPU emulation tests): one-line
// problems for tables of shapes, and random valid problems of a given kind, rank and channel counts.
#include <algorithm>
#include <cstdint>
#include <random>

#include "problem/conv_problem.hpp"
#include "problem/problem_validation.hpp"

namespace kbench::gpu_tests {

inline ConvProblem make_problem(OpKind op, int rank, std::int64_t n, std::int64_t cin, std::int64_t cout,
                                std::int64_t groups, Dims input, Dims kernel, Dims stride, Dims dilation,
                                Dims pad_before, Dims pad_after, bool bias, Dims output_padding = Dims{{0, 0, 0}}) {
  ConvProblem p;
  p.op = op;
  p.spatial_rank = rank;
  p.batch = n;
  p.in_channels = cin;
  p.out_channels = cout;
  p.groups = groups;
  p.input = input;
  p.kernel = kernel;
  p.stride = stride;
  p.dilation = dilation;
  p.pad_before = pad_before;
  p.pad_after = pad_after;
  p.output_padding = output_padding;
  p.bias = bias;
  return p;
}

inline std::int64_t pick(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

// Upper bounds of random_problem's draws (lower bounds are 1, or 0 for padding).
struct ShapeLimits {
  std::int64_t input[3] = {300, 40, 12};  // per rank 1, 2, 3
  std::int64_t kernel[3] = {5, 5, 3};
  std::int64_t batch = 3, groups = 3, stride = 3, dilation = 3, padding = 3;
};

// Small shapes, for the CPU emulation tests (which run every thread of every block).
inline ShapeLimits small_shapes() {
  ShapeLimits limits;
  limits.input[0] = 40;
  limits.input[1] = 12;
  limits.input[2] = 5;
  limits.kernel[0] = limits.kernel[1] = limits.kernel[2] = 3;
  limits.batch = limits.groups = limits.dilation = limits.padding = 2;
  return limits;
}

// A random valid problem: `rank` spatial dimensions, cin_pg / cout_pg channels per group.
inline ConvProblem random_problem(std::mt19937_64& rng, OpKind op, int rank, std::int64_t cin_pg, std::int64_t cout_pg,
                                  const ShapeLimits& limits = {}) {
  for (;;) {
    ConvProblem p;
    p.op = op;
    p.spatial_rank = rank;
    p.batch = pick(rng, 1, limits.batch);
    p.groups = pick(rng, 1, limits.groups);
    p.in_channels = p.groups * cin_pg;
    p.out_channels = p.groups * cout_pg;
    p.bias = pick(rng, 0, 1) == 1;
    for (int d = 0; d < rank; ++d) {
      p.kernel[d] = pick(rng, 1, limits.kernel[rank - 1]);
      p.stride[d] = pick(rng, 1, limits.stride);
      p.dilation[d] = pick(rng, 1, limits.dilation);
      p.pad_before[d] = pick(rng, 0, limits.padding);
      p.pad_after[d] = pick(rng, 0, limits.padding);
      p.input[d] = pick(rng, 1, limits.input[rank - 1]);
      if (op == OpKind::conv_transpose) p.output_padding[d] = pick(rng, 0, std::max(p.stride[d], p.dilation[d]) - 1);
    }
    if (validate_problem(p).ok) return p;
  }
}

}  // namespace kbench::gpu_tests
