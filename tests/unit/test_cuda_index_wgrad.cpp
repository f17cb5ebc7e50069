// The backward_weights GEMM's index arithmetic (cuda/wgrad/wgrad_index.hpp) against the fp64
// reference's weight_grad: the GEMM summed on the CPU through row_offset, gathered_position,
// gathered_offset and weight_index, on random convolutions and transposed ones of every rank and
// groups; the splits' ranges; the split choice.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cuda/wgrad/wgrad_index.hpp"
#include "data/host_tensors.hpp"
#include "reference/backward_conv.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace wg = gpu::conv::wgrad;

// grad_weight as the GEMM computes it, split by split and the splits summed in order, in double.
std::vector<double> gemm_on_cpu(const wg::WgradParams& d, const std::vector<float>& x, const std::vector<float>& dy) {
  const std::vector<float>& rows = d.rows_are_x ? x : dy;
  const std::vector<float>& gathered = d.rows_are_x ? dy : x;
  std::vector<double> dw(static_cast<std::size_t>(wg::weight_elements(d)), 0.0);
  for (std::int64_t s = 0; s < d.splits; ++s) {
    const wg::KRange r = wg::split_range(d, s);
    for (std::int64_t g = 0; g < d.groups; ++g)
      for (std::int64_t m = 0; m < d.m; ++m)
        for (std::int64_t col = 0; col < wg::columns(d); ++col) {
          double partial = 0;
          for (std::int64_t k = r.begin; k < r.end; ++k) {
            const std::int64_t n = k / d.row_volume, pos = k % d.row_volume;
            const std::int64_t at = wg::gathered_position(d, pos, col % d.taps);
            if (at < 0) continue;
            partial += double{rows[static_cast<std::size_t>(wg::row_offset(d, g, n, m, pos))]} *
                       double{gathered[static_cast<std::size_t>(wg::gathered_offset(d, g, n, col / d.taps, at))]};
          }
          dw[static_cast<std::size_t>(wg::weight_index(d, g, m, col))] += partial;
        }
  }
  return dw;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("wgrad: the GEMM's indices reproduce the reference grad_weight, conv and transposed, split or not") {
    std::mt19937_64 rng(testing::test_seed(2602));
    for (int trial = 0; trial < 80; ++trial) {
      const OpKind op = trial % 2 ? OpKind::conv_transpose : OpKind::conv;
      ConvProblem p = test::random_problem(rng, op);
      p.pass = Pass::backward_weights;
      CAPTURE(trial);
      const data::HostTensors t = data::make_host_tensors(p, 100 + static_cast<std::uint64_t>(trial));
      const std::vector<double> want = reference::weight_grad(p, t.input, t.grad_output);
      wg::WgradParams d = wg::make_wgrad_params(p, 0);
      REQUIRE(d.splits == 1);
      REQUIRE(wg::weight_elements(d) == p.weight_elements());
      // Unsplit, then in 1 to 5 splits (more than the reduction's length clamps to it).
      d = wg::with_splits(d, test::pick(rng, 1, 5));
      const std::vector<double> got = gemm_on_cpu(d, t.input, t.grad_output);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        REQUIRE(std::abs(got[i] - want[i]) <= 1e-9 * (1 + std::abs(want[i])));
      }
    }
  }

  TEST_CASE("wgrad: splits cover the reduction in order, none empty, the choice fills two waves within limits") {
    std::mt19937_64 rng(testing::test_seed(2603));
    for (int trial = 0; trial < 200; ++trial) {
      ConvProblem p = test::random_problem(rng, trial % 2 ? OpKind::conv_transpose : OpKind::conv);
      wg::WgradParams d = wg::with_splits(wg::make_wgrad_params(p, 0), test::pick(rng, 1, 40));
      std::int64_t next = 0;
      for (std::int64_t s = 0; s < d.splits; ++s) {
        const wg::KRange r = wg::split_range(d, s);
        CHECK(r.begin == next);
        CHECK(r.end > r.begin);
        next = r.end;
      }
      CHECK(next == wg::k_total(d));
    }
    // Problem 76's backward_weights: 6 tiles and K of 64 x 174,757 (11 million) on 132 SMs splits to fill
    // two waves; its reduction outlasts the minimum split many times over.
    ConvProblem p76 = testing::headline76();
    p76.pass = Pass::backward_weights;
    const wg::WgradParams d76 = wg::make_wgrad_params(p76, 132);
    CHECK(d76.m == 128);
    CHECK(wg::columns(d76) == 64 * 3);
    CHECK(wg::k_total(d76) == p76.batch * p76.output_spatial_volume());
    CHECK(d76.splits == (2 * 132 + wg::tiles(d76) - 1) / wg::tiles(d76));
    CHECK(d76.k_per_split >= wg::kMinKPerSplit);
    CHECK(wg::workspace_elements(d76) == d76.splits * p76.weight_elements());
    // A short reduction is not split below the minimum; unknown SMs do not split; gridDim.z holds.
    ConvProblem small = test::random_problem(rng, OpKind::conv);
    CHECK(wg::make_wgrad_params(small, 132).splits == 1);
    CHECK(wg::make_wgrad_params(p76, 0).splits == 1);
    ConvProblem many_groups = p76;
    many_groups.groups = 64;
    many_groups.out_channels = 128;
    CHECK(wg::make_wgrad_params(many_groups, 100000).splits * 64 <= wg::kMaxGridZ);
  }
}

}  // namespace kbench
