// Phase decomposition of transposed convolutions and the direct kernel's tap walks, against brute
// force over conv_geometry.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>

#include "cuda/direct/tap_walk_index.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

using gpu::conv::PhaseDim;

// (tap, input) pairs a walk enumerates.
std::set<std::pair<std::int64_t, std::int64_t>> walk_pairs(const gpu::conv::TapWalk& w) {
  std::set<std::pair<std::int64_t, std::int64_t>> s;
  for (std::int64_t j = 0; j < w.count; ++j) s.emplace(w.k_first + j * w.k_step, w.i_first + j * w.i_step);
  return s;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("floor division, modulo and modular inverse") {
    CHECK(gpu::conv::floor_div(-7, 2) == -4);
    CHECK(gpu::conv::floor_div(7, 2) == 3);
    CHECK(gpu::conv::floor_div(-6, 3) == -2);
    CHECK(gpu::conv::floor_mod(-7, 3) == 2);
    CHECK(gpu::conv::ceil_div(-7, 2) == -3);
    CHECK(gpu::conv::ceil_div(7, 2) == 4);
    CHECK(gpu::conv::gcd(12, 18) == 6);
    for (std::int64_t m = 1; m <= 40; ++m)
      for (std::int64_t a = 1; a <= 40; ++a) {
        if (gpu::conv::gcd(a, m) != 1) continue;
        const std::int64_t x = gpu::conv::mod_inverse(a, m);
        CHECK(x >= 0);
        CHECK(x < m);
        CHECK((a * x) % m == 1 % m);
      }
  }

  TEST_CASE("problem 77 along one dimension: only odd outputs have taps, all three of them") {
    ConvProblem p;
    p.op = OpKind::conv_transpose;
    p.spatial_rank = 1;
    p.input[0] = 16;
    p.kernel[0] = 3;
    p.stride[0] = 2;
    p.dilation[0] = 2;
    p.pad_before[0] = 1;
    p.pad_after[0] = 1;
    const PhaseDim pd = gpu::conv::make_phase_dim(p, 0);
    CHECK(pd.out_extent == 33);
    CHECK(pd.g == 2);
    CHECK(pd.period == 1);
    CHECK(gpu::conv::phase_tap_count(pd, 0) == 3);
    CHECK(gpu::conv::phase_tap_count(pd, 1) == 0);
    for (std::int64_t o = 0; o < 33; ++o) CHECK(gpu::conv::position_has_taps(pd, o) == (o % 2 == 1));
    CHECK(gpu::conv::first_tapped_position(pd) == 1);
    CHECK(gpu::conv::gap_to_next_tapped(pd, 0) == 2);
    CHECK(gpu::conv::untapped_phase_mask(pd) == 2u);
    const gpu::conv::PhaseRange r = gpu::conv::phase_positions(pd, 0);
    CHECK(r.q_begin == 1);
    CHECK(r.count == 16);
  }

  TEST_CASE("phase tap lists, ranges, gaps and first positions match brute force") {
    std::mt19937_64 rng(kbench::testing::test_seed(77));
    int dims_checked = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const ConvProblem p = test::random_problem(rng, OpKind::conv_transpose, 1);
      const PhaseDim pd = gpu::conv::make_phase_dim(p, 0);
      const std::int64_t s = pd.stride, out = pd.out_extent;
      for (std::int64_t ph = 0; ph < s; ++ph) {
        // Taps landing on phase ph, irrespective of the input's extent.
        std::vector<std::int64_t> taps;
        for (std::int64_t k = 0; k < pd.kernel; ++k)
          if (gpu::conv::floor_mod(k * pd.dilation - ph, s) == 0) taps.push_back(k);
        REQUIRE(gpu::conv::phase_tap_count(pd, ph) == static_cast<std::int64_t>(taps.size()));
        for (std::size_t j = 0; j < taps.size(); ++j) {
          const auto jj = static_cast<std::int64_t>(j);
          CHECK(gpu::conv::phase_tap(pd, ph, jj) == taps[j]);
          const std::int64_t shift = gpu::conv::phase_tap_shift(pd, ph, jj);
          CHECK(shift >= 0);
          CHECK(shift * s == taps[j] * pd.dilation - ph);
        }
        // Positions of phase ph, exactly.
        std::vector<std::int64_t> positions;
        for (std::int64_t o = 0; o < out; ++o)
          if (gpu::conv::phase_of(pd, o) == ph) positions.push_back(o);
        const gpu::conv::PhaseRange r = gpu::conv::phase_positions(pd, ph);
        REQUIRE(r.count == static_cast<std::int64_t>(positions.size()));
        for (std::int64_t q = 0; q < r.count; ++q)
          CHECK(gpu::conv::phase_position(pd, ph, r.q_begin + q) == positions[static_cast<std::size_t>(q)]);
        // Gap to the next tapped phase.
        std::int64_t gap = 1;
        while (gap < s && gpu::conv::phase_tap_count(pd, (ph + gap) % s) == 0) ++gap;
        CHECK(gpu::conv::gap_to_next_tapped(pd, ph) == gap);
        CHECK(((gpu::conv::untapped_phase_mask(pd) >> ph) & 1u) == (taps.empty() ? 1u : 0u));
      }
      std::int64_t first = out;
      for (std::int64_t o = out - 1; o >= 0; --o)
        if (gpu::conv::position_has_taps(pd, o)) first = o;
      CHECK(gpu::conv::first_tapped_position(pd) == first);
      ++dims_checked;
    }
    CHECK(dims_checked == 400);
  }

  TEST_CASE("tap walks visit exactly the contributing (tap, input) pairs") {
    std::mt19937_64 rng(kbench::testing::test_seed(2024));
    std::int64_t outputs = 0, pairs = 0;
    for (const OpKind op : {OpKind::conv, OpKind::conv_transpose}) {
      for (int trial = 0; trial < 300; ++trial) {
        const ConvProblem p = test::random_problem(rng, op, 1);
        const PhaseDim pd = gpu::conv::make_phase_dim(p, 0);
        for (std::int64_t o = 0; o < p.output_extent(0); ++o) {
          std::set<std::pair<std::int64_t, std::int64_t>> expected;
          for (std::int64_t k = 0; k < p.kernel[0]; ++k) {
            std::int64_t i = -1;
            if (op == OpKind::conv) {
              i = geometry::conv_input_coord(p, 0, o, k);
              if (i >= 0 && i < p.input[0]) expected.emplace(k, i);
            } else if (geometry::transposed_tap_source(p, 0, o, k, &i) && i >= 0) {
              expected.emplace(k, i);
            }
          }
          const gpu::conv::TapWalk w =
              op == OpKind::conv ? gpu::conv::conv_tap_walk(p, 0, o) : gpu::conv::transposed_tap_walk(pd, o);
          CHECK(w.count >= 0);
          CHECK(walk_pairs(w) == expected);
          CHECK(static_cast<std::size_t>(w.count) == expected.size());  // no pair twice
          if (op == OpKind::conv_transpose && !gpu::conv::position_has_taps(pd, o)) CHECK(expected.empty());
          ++outputs;
          pairs += w.count;
        }
      }
    }
    CHECK(outputs > 1000);
    CHECK(pairs > 1000);
  }

}  // TEST_SUITE

}  // namespace kbench
