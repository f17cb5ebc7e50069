// The shared index arithmetic (problem/conv_geometry.hpp) against brute-force enumeration.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "problem/conv_geometry.hpp"
#include "test_seed.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
namespace geometry = kbench::geometry;

namespace {

// A 1-D problem with random geometry along dimension 0 (the functions under test work per dimension).
ConvProblem random_1d(std::mt19937_64& rng, OpKind op) {
  const auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (;;) {
    ConvProblem p;
    p.op = op;
    p.spatial_rank = 1;
    p.input[0] = pick(1, 10);
    p.kernel[0] = pick(1, 4);
    p.stride[0] = pick(1, 4);
    p.dilation[0] = pick(1, 3);
    p.pad_before[0] = pick(0, 3);
    p.pad_after[0] = pick(0, 3);
    if (op == OpKind::conv_transpose) p.output_padding[0] = pick(0, 2);
    if (p.output_extent(0) >= 1) return p;
  }
}

}  // namespace

TEST_SUITE("geometry") {
  TEST_CASE("unflatten and flatten are inverse, last coordinate fastest") {
    for (int rank = 1; rank <= 3; ++rank) {
      const Dims extent{{4, 5, 6}};
      std::int64_t volume = 1;
      for (int d = 0; d < rank; ++d) volume *= extent[d];
      const std::int64_t channels = 3;
      const std::int64_t total = 2 * channels * volume;
      for (std::int64_t flat = 0; flat < total; ++flat) {
        const geometry::TensorCoord c = geometry::unflatten(flat, channels, extent, rank);
        CHECK(c.n < 2);
        CHECK(c.c < channels);
        for (int d = 0; d < rank; ++d) CHECK((c.pos[d] >= 0 && c.pos[d] < extent[d]));
        CHECK(geometry::flatten(c, channels, extent, rank) == flat);
      }
      const geometry::TensorCoord one = geometry::unflatten(1, channels, extent, rank);
      CHECK(one.pos[rank - 1] == 1);
      const geometry::TensorCoord next_channel = geometry::unflatten(volume, channels, extent, rank);
      CHECK(next_channel.c == 1);
      CHECK(next_channel.n == 0);
      const geometry::TensorCoord next_batch = geometry::unflatten(channels * volume, channels, extent, rank);
      CHECK(next_batch.n == 1);
      CHECK(next_batch.c == 0);
    }
  }

  TEST_CASE("flatten of a hand-picked coordinate") {
    // [N][C=3][4][5][6]: (1, 2, 3, 4, 5) -> ((((1*3 + 2)*4 + 3)*5 + 4)*6 + 5 = 719
    geometry::TensorCoord c;
    c.n = 1;
    c.c = 2;
    c.pos = Dims{{3, 4, 5}};
    CHECK(geometry::flatten(c, 3, Dims{{4, 5, 6}}, 3) == 719);
  }

  TEST_CASE("weight_index follows PyTorch's layouts") {
    ConvProblem p;  // conv2d 4 -> 6, groups 2, 3x2 kernel: weight [6][2][3][2]
    p.in_channels = 4;
    p.out_channels = 6;
    p.groups = 2;
    p.kernel = Dims{{3, 2, 1}};
    // (5, 1, 2, 1) -> ((5*2 + 1)*3 + 2)*2 + 1 = 71
    CHECK(geometry::weight_index(p, 5, 1, Dims{{2, 1, 0}}) == 71);
    p.op = OpKind::conv_transpose;  // weight [4][3][3][2]: (3, 2, 1, 0) -> ((3*3 + 2)*3 + 1)*2 = 68
    CHECK(geometry::weight_index(p, 3, 2, Dims{{1, 0, 0}}) == 68);
  }

  TEST_CASE("floor_div and ceil_div round toward -inf and +inf") {
    CHECK(geometry::floor_div(7, 2) == 3);
    CHECK(geometry::ceil_div(7, 2) == 4);
    CHECK(geometry::floor_div(-7, 2) == -4);
    CHECK(geometry::ceil_div(-7, 2) == -3);
    CHECK(geometry::floor_div(-6, 3) == -2);
    CHECK(geometry::ceil_div(-6, 3) == -2);
    CHECK(geometry::floor_div(0, 5) == 0);
    CHECK(geometry::ceil_div(0, 5) == 0);
    CHECK(geometry::ceil_div(-1, 5) == 0);
    CHECK(geometry::floor_div(-1, 5) == -1);
  }

  TEST_CASE("transposed_tap_source finds exactly the input a brute-force search finds") {
    std::mt19937_64 rng(kbench::testing::test_seed(1));
    for (int trial = 0; trial < 500; ++trial) {
      const ConvProblem p = random_1d(rng, OpKind::conv_transpose);
      for (std::int64_t out = 0; out < p.output_extent(0); ++out)
        for (std::int64_t k = 0; k < p.kernel[0]; ++k) {
          std::int64_t brute = -1;
          for (std::int64_t i = 0; i < p.input[0]; ++i)
            if (i * p.stride[0] - p.pad_before[0] + k * p.dilation[0] == out) brute = i;
          std::int64_t in = -1;
          const bool found = geometry::transposed_tap_source(p, 0, out, k, &in);
          CHECK(found == (brute >= 0));
          if (found) CHECK(in == brute);
          if (found) CHECK(geometry::transposed_output_coord(p, 0, in, k) == out);
        }
    }
  }

  TEST_CASE("landed_pairs counts the pairs brute force counts") {
    std::mt19937_64 rng(kbench::testing::test_seed(2));
    for (int trial = 0; trial < 500; ++trial) {
      const OpKind op = trial % 2 ? OpKind::conv_transpose : OpKind::conv;
      const ConvProblem p = random_1d(rng, op);
      std::int64_t brute = 0;
      if (op == OpKind::conv) {
        // every tap of every output, padding included
        for (std::int64_t out = 0; out < p.output_extent(0); ++out) brute += p.kernel[0];
      } else {
        for (std::int64_t i = 0; i < p.input[0]; ++i)
          for (std::int64_t k = 0; k < p.kernel[0]; ++k) {
            const std::int64_t out = i * p.stride[0] - p.pad_before[0] + k * p.dilation[0];
            brute += out >= 0 && out < p.output_extent(0);
          }
      }
      CHECK(geometry::landed_pairs(p, 0) == brute);
    }
  }

  TEST_CASE("conv_tap_run and transposed_tap_run list exactly the connected pairs") {
    std::mt19937_64 rng(kbench::testing::test_seed(3));
    for (int trial = 0; trial < 600; ++trial) {
      const OpKind op = trial % 2 ? OpKind::conv_transpose : OpKind::conv;
      const ConvProblem p = random_1d(rng, op);
      const std::int64_t extent = p.output_extent(0);
      std::uniform_int_distribution<std::int64_t> position(0, extent);
      std::int64_t begin = position(rng), end = position(rng);
      if (begin > end) std::swap(begin, end);
      for (std::int64_t k = 0; k < p.kernel[0]; ++k) {
        // Brute force: every output in [begin, end) and the input it is connected to through tap k.
        std::vector<std::pair<std::int64_t, std::int64_t>> brute;
        for (std::int64_t out = begin; out < end; ++out)
          for (std::int64_t i = 0; i < p.input[0]; ++i) {
            const std::int64_t offset = k * p.dilation[0] - p.pad_before[0];
            const bool connected =
                op == OpKind::conv ? out * p.stride[0] + offset == i : i * p.stride[0] + offset == out;
            if (connected) brute.emplace_back(out, i);
          }
        const geometry::TapRun run = op == OpKind::conv ? geometry::conv_tap_run(p, 0, k, begin, end)
                                                        : geometry::transposed_tap_run(p, 0, k, begin, end);
        std::vector<std::pair<std::int64_t, std::int64_t>> listed;
        for (std::int64_t j = 0; j < run.count; ++j)
          listed.emplace_back(run.first_out + j * run.out_step, run.first_in + j * run.in_step);
        INFO("trial ", trial, " k ", k, " begin ", begin, " end ", end);
        CHECK(listed == brute);
      }
    }
  }
}
