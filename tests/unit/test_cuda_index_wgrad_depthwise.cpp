// The depthwise backward_weights family's index arithmetic (cuda/wgrad/wgrad_depthwise_index.hpp):
// the slices' steps stage every (n, row position) of a channel exactly once; the kernel's sum, done
// on the CPU through step_at, row_position, window_source, window_base and tap_offset over staged
// arrays as the kernel stages them, equals the fp64 reference's weight_grad on random depthwise
// convolutions and transposed ones (1-D to 3-D, stride, dilation, padding); the lines and slices
// chosen.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cuda/wgrad/wgrad_depthwise_index.hpp"
#include "data/host_tensors.hpp"
#include "reference/backward_conv.hpp"
#include "problem/problem_validation.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace wd = gpu::conv::wgrad_depthwise;

// A random depthwise backward_weights problem; `wide` draws lines of up to 150 positions (several
// segments) and up to 40 lines (several line blocks) for 1-D and 2-D.
ConvProblem random_depthwise(std::mt19937_64& rng, OpKind op, bool wide) {
  for (;;) {
    ConvProblem p = test::random_problem(rng, op);
    p.groups = p.in_channels = p.out_channels = test::pick(rng, 1, 3);
    p.pass = Pass::backward_weights;
    if (wide && p.spatial_rank < 3) {
      p.input[p.spatial_rank - 1] = test::pick(rng, 1, 150);
      if (p.spatial_rank == 2) p.input[0] = test::pick(rng, 1, 40);
    }
    if (validate_problem(p).ok && p.kernel_volume() <= wd::kMaxTaps) return p;
  }
}

// `p`'s desc with random lines per step (a power of two up to 16) and slices (1 to 9).
wd::WgradDepthwiseParams random_desc(std::mt19937_64& rng, const ConvProblem& p) {
  wd::WgradDepthwiseParams d = wd::with_lines(wd::make_wgrad_depthwise_params(p, 0), 1 << test::pick(rng, 0, 4));
  return wd::with_slices(d, test::pick(rng, 1, 9));
}

// grad_weight as the kernel computes it (in double): per channel and slice, each step's rows and
// window staged, each staged row times the window at every tap; the slices summed in order.
std::vector<double> kernel_on_cpu(const wd::WgradDepthwiseParams& d, const std::vector<float>& x, const std::vector<float>& dy) {
  const std::vector<float>& rows = d.g.rows_are_x ? x : dy;
  const std::vector<float>& gathered = d.g.rows_are_x ? dy : x;
  std::vector<double> partials(static_cast<std::size_t>(d.slices * wd::weight_elements(d)), 0.0);
  std::vector<double> row_stage(static_cast<std::size_t>(wd::row_stage_floats(d)));
  std::vector<double> window(static_cast<std::size_t>(wd::window_floats(d)));
  for (std::int64_t slice = 0; slice < d.slices; ++slice)
    for (std::int64_t ch = 0; ch < wd::channels(d); ++ch) {
      const wd::StepRange r = wd::slice_range(d, slice);
      for (std::int64_t s = r.begin; s < r.end; ++s) {
        const wd::Step step = wd::step_at(d, s);
        for (std::size_t e = 0; e < row_stage.size(); ++e) {
          const std::int64_t pos = wd::row_position(d, step, static_cast<std::int64_t>(e));
          row_stage[e] = pos < 0 ? 0.0 : rows[static_cast<std::size_t>(gpu::conv::wgrad::row_offset(d.g, ch, step.n, 0, pos))];
        }
        for (std::size_t e = 0; e < window.size(); ++e) {
          const std::int64_t at = wd::window_source(d, step, static_cast<std::int64_t>(e));
          window[e] =
              at < 0 ? 0.0 : gathered[static_cast<std::size_t>(gpu::conv::wgrad::gathered_offset(d.g, ch, step.n, 0, at))];
        }
        for (std::size_t e = 0; e < row_stage.size(); ++e)
          for (std::int64_t tap = 0; tap < wd::taps(d); ++tap) {
            const std::int64_t w = wd::window_base(d, static_cast<std::int64_t>(e)) + wd::tap_offset(d, tap);
            REQUIRE(w >= 0);
            REQUIRE(w < wd::window_floats(d));
            partials[static_cast<std::size_t>(wd::partial_index(d, slice, ch, tap))] +=
                row_stage[e] * window[static_cast<std::size_t>(w)];
          }
      }
    }
  std::vector<double> dw(static_cast<std::size_t>(wd::weight_elements(d)), 0.0);
  for (std::int64_t slice = 0; slice < d.slices; ++slice)
    for (std::int64_t i = 0; i < wd::weight_elements(d); ++i)
      dw[static_cast<std::size_t>(i)] += partials[static_cast<std::size_t>(slice * wd::weight_elements(d) + i)];
  return dw;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("wgrad_depthwise: the slices' steps stage every (n, row position) once, in order, none empty") {
    std::mt19937_64 rng(testing::test_seed(2611));
    for (int trial = 0; trial < 150; ++trial) {
      const ConvProblem p = random_depthwise(rng, trial % 2 ? OpKind::conv_transpose : OpKind::conv, trial % 3 != 0);
      const wd::WgradDepthwiseParams d = random_desc(rng, p);
      CAPTURE(trial);
      CAPTURE(d.lines);
      CAPTURE(d.slices);
      std::vector<int> staged(static_cast<std::size_t>(d.g.batch * d.g.row_volume), 0);
      std::int64_t next = 0;
      for (std::int64_t slice = 0; slice < d.slices; ++slice) {
        const wd::StepRange r = wd::slice_range(d, slice);
        CHECK(r.begin == next);
        CHECK(r.end > r.begin);
        next = r.end;
        for (std::int64_t s = r.begin; s < r.end; ++s) {
          const wd::Step step = wd::step_at(d, s);
          for (std::int64_t e = 0; e < wd::row_stage_floats(d); ++e)
            if (const std::int64_t pos = wd::row_position(d, step, e); pos >= 0) {
              REQUIRE(pos < d.g.row_volume);
              ++staged[static_cast<std::size_t>(step.n * d.g.row_volume + pos)];
            }
        }
      }
      CHECK(next == wd::steps(d));
      for (std::size_t i = 0; i < staged.size(); ++i) {
        CAPTURE(i);
        REQUIRE(staged[i] == 1);
      }
    }
  }

  TEST_CASE("wgrad_depthwise: the kernel's sum through the indices reproduces the reference grad_weight") {
    std::mt19937_64 rng(testing::test_seed(2612));
    for (int trial = 0; trial < 80; ++trial) {
      const ConvProblem p = random_depthwise(rng, trial % 2 ? OpKind::conv_transpose : OpKind::conv, trial % 3 != 0);
      const wd::WgradDepthwiseParams d = random_desc(rng, p);
      CAPTURE(trial);
      CAPTURE(d.lines);
      CAPTURE(d.slices);
      const data::HostTensors t = data::make_host_tensors(p, 700 + static_cast<std::uint64_t>(trial));
      const std::vector<double> want = reference::weight_grad(p, t.input, t.grad_output);
      REQUIRE(wd::weight_elements(d) == p.weight_elements());
      const std::vector<double> got = kernel_on_cpu(d, t.input, t.grad_output);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        REQUIRE(std::abs(got[i] - want[i]) <= 1e-9 * (1 + std::abs(want[i])));
      }
    }
  }

  TEST_CASE("wgrad_depthwise: lines fill the shared memory, slices fill two waves, problem 84") {
    // Problem 84's backward_weights: 128 channels, 64 x 254 lines of 510 positions, 3x3 taps. 16 lines
    // of 64 a step (window 18 x 66), 16 x 8 steps per image; on 132 SMs 5 slices per channel make
    // 640 blocks, about two waves of two per SM.
    ConvProblem p84 = testing::headline84();
    p84.pass = Pass::backward_weights;
    const wd::WgradDepthwiseParams d = wd::make_wgrad_depthwise_params(p84, 132);
    CHECK(d.lines == 16);
    CHECK(d.span_h == 18);
    CHECK(d.span_w == 66);
    CHECK(wd::steps(d) == 64 * 16 * 8);
    CHECK(d.slices == 5);
    CHECK(d.steps_per_slice == (8192 + 4) / 5);
    CHECK(wd::fits(d));
    CHECK(wd::workspace_elements(d) == 5 * 128 * 9);
    CHECK(wd::make_wgrad_depthwise_params(p84, 0).slices == 1);
    CHECK(wd::workspace_elements(wd::make_wgrad_depthwise_params(p84, 0)) == 0);
    // A 1-D problem stages one line a step; a long stride shrinks the lines until the window fits;
    // past one line's window nothing fits.
    ConvProblem one_d = p84;
    one_d.spatial_rank = 1;
    one_d.input = Dims{{4096, 1, 1}};
    one_d.kernel = Dims{{5, 1, 1}};
    CHECK(wd::make_wgrad_depthwise_params(one_d, 0).lines == 1);
    ConvProblem strided = p84;
    strided.stride = Dims{{8, 8, 1}};
    const wd::WgradDepthwiseParams ds = wd::make_wgrad_depthwise_params(strided, 0);
    CHECK(ds.lines < 16);
    CHECK(wd::fits(ds));
    CHECK_FALSE(wd::fits(wd::with_lines(ds, ds.lines * 2)));
    strided.stride = Dims{{64, 64, 1}};
    strided.dilation = Dims{{2, 2, 1}};
    CHECK_FALSE(wd::fits(wd::make_wgrad_depthwise_params(strided, 0)));
    // Few steps are not sliced below the minimum; the grid stays within gridDim.x.
    ConvProblem small = p84;
    small.batch = 1;
    small.input = Dims{{16, 64, 1}};
    CHECK(wd::make_wgrad_depthwise_params(small, 132).slices == 1);
    CHECK(wd::make_wgrad_depthwise_params(p84, 1 << 30).slices * 128 <= wd::kMaxGridX);
  }
}

}  // namespace kbench
