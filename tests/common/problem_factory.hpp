#pragma once
// Random valid ConvProblems for the tests that run kernels (GPU tests, CPU emulation tests, the
// cuda_index tests): one generator, its bounds chosen per test. A fixed problem is written as a
// ConvProblem with designated initializers (`ConvProblem{.op = ..., .spatial_rank = 2, ...}`), fields
// left out at ConvProblem's defaults.
#include <algorithm>
#include <cstdint>
#include <random>

#include "problem/conv_problem.hpp"
#include "problem/problem_validation.hpp"

namespace kbench::gpu_tests {

inline std::int64_t pick(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

// Upper bounds of random_problem's draws (lower bounds are 1, or 0 for padding).
struct ShapeLimits {
  std::int64_t input[3] = {300, 40, 12};  // per rank 1, 2, 3
  std::int64_t kernel[3] = {5, 5, 3};
  std::int64_t batch = 3, groups = 3, stride = 3, dilation = 3, padding = 3;
  std::int64_t channels_per_group = 4;  // when random_problem is asked to draw them
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

// Tiny shapes, for the index tests that enumerate every output and every tap of a problem.
inline ShapeLimits tiny_shapes() {
  ShapeLimits limits;
  limits.input[0] = limits.input[1] = 9;
  limits.input[2] = 5;
  limits.kernel[0] = limits.kernel[1] = limits.kernel[2] = 4;
  limits.batch = 2;
  limits.stride = 4;
  return limits;
}

// A random valid problem: `rank` spatial dimensions (0: drawn from 1 to 3), cin_pg / cout_pg channels
// per group (0: drawn up to limits.channels_per_group). The draws come in a fixed order, so a seed
// names one sequence of problems.
inline ConvProblem random_problem(std::mt19937_64& rng, OpKind op, int rank, std::int64_t cin_pg, std::int64_t cout_pg,
                                  const ShapeLimits& limits = {}) {
  for (;;) {
    ConvProblem p;
    p.op = op;
    p.spatial_rank = rank > 0 ? rank : static_cast<int>(pick(rng, 1, 3));
    p.batch = pick(rng, 1, limits.batch);
    p.groups = pick(rng, 1, limits.groups);
    p.in_channels = p.groups * (cin_pg > 0 ? cin_pg : pick(rng, 1, limits.channels_per_group));
    p.out_channels = p.groups * (cout_pg > 0 ? cout_pg : pick(rng, 1, limits.channels_per_group));
    p.bias = pick(rng, 0, 1) == 1;
    const int r = p.spatial_rank;
    for (int d = 0; d < r; ++d) {
      p.kernel[d] = pick(rng, 1, limits.kernel[r - 1]);
      p.stride[d] = pick(rng, 1, limits.stride);
      p.dilation[d] = pick(rng, 1, limits.dilation);
      p.pad_before[d] = pick(rng, 0, limits.padding);
      p.pad_after[d] = pick(rng, 0, limits.padding);
      p.input[d] = pick(rng, 1, limits.input[r - 1]);
      // PyTorch: output_padding must be smaller than stride or dilation.
      if (op == OpKind::conv_transpose) p.output_padding[d] = pick(rng, 0, std::max(p.stride[d], p.dilation[d]) - 1);
    }
    if (validate_problem(p).ok) return p;
  }
}

}  // namespace kbench::gpu_tests
