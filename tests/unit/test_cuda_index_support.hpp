#pragma once
// Shared by the cuda_index tests: tiny random valid problems (fixed seeds) and, for any output element,
// the brute-force set of (input index, weight index) pairs that feed it, straight from
// conv_geometry (the same definitions the CPU reference uses).
#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"
#include "problem_factory.hpp"

namespace kbench::test {

using Pair = std::pair<std::int64_t, std::int64_t>;  // (input index, weight index)

using gpu_tests::pick;

// A tiny valid problem of the given kind (gpu_tests::tiny_shapes); `rank` 0 picks one at random. Sizes
// stay tiny so a test can afford to enumerate every output and every tap.
inline ConvProblem random_problem(std::mt19937_64& rng, OpKind op, int rank = 0) {
  return gpu_tests::random_problem(rng, op, rank, 0, 0, gpu_tests::tiny_shapes());
}

// Every (input, weight) pair feeding flat output `out` of rank-3 problem p3, sorted.
inline std::vector<Pair> brute_force_pairs(const ConvProblem& p3, std::int64_t out) {
  const Dims oext = p3.output();
  const geometry::TensorCoord o = geometry::unflatten(out, p3.out_channels, oext, 3);
  const std::int64_t group = o.c / p3.out_channels_per_group();
  const std::int64_t co_local = o.c % p3.out_channels_per_group();
  std::vector<Pair> pairs;
  for (std::int64_t ci = 0; ci < p3.in_channels_per_group(); ++ci) {
    const std::int64_t c = group * p3.in_channels_per_group() + ci;
    for (std::int64_t k0 = 0; k0 < p3.kernel[0]; ++k0)
      for (std::int64_t k1 = 0; k1 < p3.kernel[1]; ++k1)
        for (std::int64_t k2 = 0; k2 < p3.kernel[2]; ++k2) {
          const std::int64_t k[3] = {k0, k1, k2};
          geometry::TensorCoord in;
          in.n = o.n;
          in.c = c;
          bool inside = true;
          for (int d = 0; d < 3 && inside; ++d) {
            std::int64_t i = -1;
            if (p3.transposed()) {
              inside = geometry::transposed_tap_source(p3, d, o.pos[d], k[d], &i);
            } else {
              i = geometry::conv_input_coord(p3, d, o.pos[d], k[d]);
            }
            inside = inside && i >= 0 && i < p3.input[d];
            in.pos[d] = i;
          }
          if (!inside) continue;
          const Dims tap{{k0, k1, k2}};
          const std::int64_t w =
              p3.transposed() ? geometry::weight_index(p3, c, co_local, tap) : geometry::weight_index(p3, o.c, ci, tap);
          pairs.emplace_back(geometry::flatten(in, p3.in_channels, p3.input, 3), w);
        }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace kbench::test
