// The shared-memory depthwise kernel's tiling (depthwise_tiled_index.hpp) against brute force: every
// output computed by exactly one (block, thread, row, column) of the launch; every tap of it read from
// the block's window at the input coordinate the convolution defines, zero exactly where that lies
// in the padding; the window copied once, whole; the tile choices and the envelope's limits.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/depthwise/depthwise_tiled_index.hpp"
#include "problem/conv_problem.hpp"
#include "reference/computable.hpp"
#include "test_cuda_index_support.hpp"

namespace kbench {
namespace {

namespace dt = gpu::conv::depthwise_tiled;
using test::pick;

// A random valid forward depthwise problem of rank 1 or 2: rectangular kernels up to 7, strides up
// to 4, dilations up to 3, channel multipliers up to 3.
ConvProblem random_depthwise(std::mt19937_64& rng, int rank) {
  for (;;) {
    ConvProblem p;
    p.spatial_rank = rank;
    p.batch = pick(rng, 1, 2);
    p.in_channels = p.groups = pick(rng, 1, 3);
    p.out_channels = p.in_channels * pick(rng, 1, 3);
    p.bias = pick(rng, 0, 1) == 1;
    for (int d = 0; d < rank; ++d) {
      p.kernel[d] = pick(rng, 1, 7);
      p.stride[d] = pick(rng, 1, 4);
      p.dilation[d] = pick(rng, 1, 3);
      p.pad_before[d] = pick(rng, 0, 3);
      p.pad_after[d] = pick(rng, 0, 3);
      // Past one tile in every direction: 2-D tiles are up to 64 columns and 64 rows, 1-D up to 2,048 columns.
      p.input[d] = pick(rng, 1, rank == 1 ? 3000 : 150);
    }
    if (reference::why_not_computable(p).empty()) return p;
  }
}

ConvProblem depthwise_2d(std::int64_t channels, std::int64_t multiplier, std::int64_t h, std::int64_t w, std::int64_t k,
                         std::int64_t stride, std::int64_t dilation, std::int64_t pad) {
  ConvProblem p;
  p.spatial_rank = 2;
  p.in_channels = p.groups = channels;
  p.out_channels = channels * multiplier;
  p.input = Dims{{h, w, 1}};
  p.kernel = Dims{{k, k, 1}};
  p.stride = Dims{{stride, stride, 1}};
  p.dilation = Dims{{dilation, dilation, 1}};
  p.pad_before = p.pad_after = Dims{{pad, pad, 0}};
  return p;
}

// Checks the launch of `p`'s tiling covers its outputs once and reads the right window elements.
void check_tiling(const ConvProblem& p) {
  const dt::TiledPlan plan = dt::make_tiled_plan(p);
  REQUIRE_MESSAGE(plan.why_not.empty(), plan.why_not);
  const dt::TiledDesc& d = plan.desc;
  CHECK(d.smem_bytes() <= dt::kMaxSmemBytes);
  CHECK(d.threads_w % 32 == 0);
  CHECK(dt::kThreads % d.threads_w == 0);
  const bool one_d = p.spatial_rank == 1;
  const int h = 0, w = one_d ? 0 : 1;
  const std::int64_t kh_n = one_d ? 1 : p.kernel[h], sh = one_d ? 1 : p.stride[h], dh = one_d ? 1 : p.dilation[h];
  const std::int64_t pt = one_d ? 0 : p.pad_before[h];
  REQUIRE(d.out_h == (one_d ? 1 : p.output_extent(h)));
  REQUIRE(d.out_w == p.output_extent(w));

  std::vector<int> computed(static_cast<std::size_t>(d.planes * d.out_h * d.out_w), 0);
  std::int64_t wrong_taps = 0, wrong_padding = 0, copied_not_once = 0, outside_tile = 0, wrong_count = 0, wrong_steps = 0;
  for (std::int64_t block = 0; block < d.blocks(); ++block) {
    const dt::BlockTile b = dt::block_tile(d, block);
    REQUIRE(b.plane < d.planes);
    // The copy: every window element once.
    std::vector<int> copied(static_cast<std::size_t>(d.window_floats()), 0);
    for (int s = 0; s < d.segments(); ++s)
      for (int lane = 0; lane < 32; ++lane) {
        const dt::Segment seg = dt::window_segment(d, s);
        if (seg.col + lane < d.window_cols) ++copied[static_cast<std::size_t>(seg.row * d.window_cols + seg.col + lane)];
      }
    for (const int c : copied) copied_not_once += c != 1 ? 1 : 0;
    // The arithmetic: each thread's outputs, as the kernel steps to them, each tap.
    for (int tid = 0; tid < dt::kThreads; ++tid) {
      const dt::ThreadOutput origin = dt::thread_origin(d, tid);
      const int count = dt::thread_output_count(d, b, origin);
      for (int i = 0; i < d.per_thread; ++i) {
        const dt::ThreadOutput o = dt::thread_output(d, origin, i);
        if (o.row >= d.tile_rows() || o.col >= d.tile_cols()) ++outside_tile;
        const std::int64_t oh = b.row0 + o.row, ow = b.col0 + o.col;
        // The first `count` outputs are exactly those inside the output.
        if ((i < count) != (oh < d.out_h && ow < d.out_w)) ++wrong_count;
        if (i >= count) continue;
        // The kernel reaches output i by stepping both pointers i times from the origin.
        if (dt::window_index(d, o.row, o.col, 0, 0) != dt::window_index(d, origin.row, origin.col, 0, 0) + i * dt::window_step(d) ||
            oh * d.out_w + ow != (b.row0 + origin.row) * d.out_w + b.col0 + origin.col + i * dt::output_step(d))
          ++wrong_steps;
        ++computed[static_cast<std::size_t>((b.plane * d.out_h + oh) * d.out_w + ow)];
        for (std::int64_t kh = 0; kh < kh_n; ++kh)
          for (std::int64_t kw = 0; kw < p.kernel[w]; ++kw) {
            const std::int64_t ih = oh * sh - pt + kh * dh;
            const std::int64_t iw = ow * p.stride[w] - p.pad_before[w] + kw * p.dilation[w];
            const int at = dt::window_index(d, o.row, o.col, static_cast<int>(kh), static_cast<int>(kw));
            const int wr = at / d.window_cols, wc = at % d.window_cols;
            // The column must not wrap into the next window row.
            const std::int64_t col_in_window = o.col * d.stride_w + kw * d.dilation_w;
            if (at < 0 || at >= d.window_floats() || col_in_window >= d.window_cols || b.in_row0 + wr != ih ||
                b.in_col0 + wc != iw)
              ++wrong_taps;
            const bool in_input = ih >= 0 && ih < d.in_h && iw >= 0 && iw < d.in_w;
            if (dt::window_in_input(d, b, wr, wc) != in_input) ++wrong_padding;
          }
      }
    }
  }
  CHECK(copied_not_once == 0);
  CHECK(wrong_count == 0);
  CHECK(wrong_steps == 0);
  CHECK(outside_tile == 0);
  CHECK(wrong_taps == 0);
  CHECK(wrong_padding == 0);
  std::int64_t not_once = 0;
  for (const int c : computed) not_once += c != 1 ? 1 : 0;
  CHECK_MESSAGE(not_once == 0, not_once << " of " << computed.size() << " outputs not computed exactly once");
}

}  // namespace

TEST_SUITE("cuda_index") {

TEST_CASE("depthwise_tiled: every output once, every tap at its input coordinate, the window copied once") {
  std::mt19937_64 rng(2101);
  for (int trial = 0; trial < 160; ++trial) {
    const ConvProblem p = random_depthwise(rng, 1 + trial % 2);
    CAPTURE(trial);
    CAPTURE(p.spatial_rank);
    CAPTURE(p.input[0]);
    CAPTURE(p.kernel[0]);
    CAPTURE(p.stride[0]);
    check_tiling(p);
  }
}

TEST_CASE("depthwise_tiled: tile choices for common shapes") {
  // MobileNet's stride-2 3x3 on 112x112: 64 threads across, 8 rows each (32 x 64 outputs), a
  // 65 x 129 window (33.5 KB).
  const dt::TiledDesc mobile = dt::make_tiled_plan(depthwise_2d(32, 1, 112, 112, 3, 2, 1, 1)).desc;
  CHECK(mobile.threads_w == 64);
  CHECK(mobile.per_thread == 8);
  CHECK(mobile.along_rows);
  CHECK(mobile.tile_rows() == 32);
  CHECK(mobile.window_rows == 65);
  CHECK(mobile.window_cols == 129);
  CHECK(mobile.tiles_h == 2);
  CHECK(mobile.tiles_w == 1);
  CHECK(dt::instance_kernel(mobile) == 3);
  // A 7x7 output: 32 threads across, one row each (8 x 32), one tile per plane.
  const dt::TiledDesc small = dt::make_tiled_plan(depthwise_2d(960, 1, 7, 7, 5, 1, 1, 2)).desc;
  CHECK(small.threads_w == 32);
  CHECK(small.per_thread == 1);
  CHECK(small.blocks() == 960);
  CHECK(dt::instance_kernel(small) == 5);
  // 1-D: one row of 256 threads, 8 columns each.
  ConvProblem line;
  line.spatial_rank = 1;
  line.in_channels = line.groups = 4;
  line.out_channels = 8;
  line.input = Dims{{100000, 1, 1}};
  line.kernel = Dims{{5, 1, 1}};
  const dt::TiledDesc one_d = dt::make_tiled_plan(line).desc;
  CHECK(one_d.threads_w == 256);
  CHECK(one_d.per_thread == 8);
  CHECK_FALSE(one_d.along_rows);
  CHECK(one_d.tile_cols() == 2048);
  CHECK(one_d.multiplier == 2);
  CHECK(dt::instance_kernel(one_d) == 0);  // 1 x 5: taps looped
  // A window that does not fit at 8 rows a thread: fewer rows.
  const dt::TiledDesc dilated = dt::make_tiled_plan(depthwise_2d(8, 1, 600, 600, 3, 4, 3, 3)).desc;
  CHECK(dilated.per_thread < 8);
  CHECK(dilated.smem_bytes() <= dt::kMaxSmemBytes);
}

TEST_CASE("depthwise_tiled: windows or weights beyond 48 KB of shared memory are refused, not overflowed") {
  const dt::TiledPlan huge_dilation = dt::make_tiled_plan(depthwise_2d(2, 1, 1 << 20, 64, 3, 1, 100000, 0));
  CHECK_FALSE(huge_dilation.why_not.empty());
  CHECK(huge_dilation.why_not.find("48 KB") != std::string::npos);
  const dt::TiledPlan many_weights = dt::make_tiled_plan(depthwise_2d(1, 4096, 16, 16, 7, 1, 1, 3));
  CHECK_FALSE(many_weights.why_not.empty());
  // Dilation near 2^30: the window's extent alone exceeds the limit (no 64-bit overflow on the way).
  ConvProblem far;
  far.spatial_rank = 1;
  far.in_channels = far.groups = far.out_channels = 1;
  far.input = Dims{{(std::int64_t{1} << 29) + 5, 1, 1}};
  far.kernel = Dims{{2, 1, 1}};
  far.dilation = Dims{{std::int64_t{1} << 29, 1, 1}};
  CHECK_FALSE(dt::make_tiled_plan(far).why_not.empty());
}

}  // TEST_SUITE

}  // namespace kbench
