// The shared-memory direct kernel's tiling (direct_tiled_params.hpp, direct_tiled_index.hpp)
// against brute force: every output computed by exactly one (block, thread, step) of the launch,
// reached by the pointer steps the kernel takes; every (input channel, tap) of it read from the
// block's window stack at the input coordinate the convolution defines, zero exactly where that lies
// in the padding (transposed: exactly the taps that land on it, each read at its input); every window
// copied once, whole; the weights copied from where PyTorch's layout keeps them, pass by pass; dead
// stack items; the tile choices and the envelope's limits.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/direct/direct_tiled_index.hpp"
#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"
#include "problem/problem_validation.hpp"
#include "problem/rank3.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace dt = gpu::conv::direct_tiled;
using test::pick;

// A random valid problem of kind `op` with few channels per group: rank 1 to 3, rectangular kernels
// (up to 7, 3 in depth), strides up to 4, dilations up to 3, up to 3 output channels per group and
// up to `most_in` input channels per group, extents past a tile in every direction.
ConvProblem random_small_groups(std::mt19937_64& rng, int rank, OpKind op = OpKind::conv, std::int64_t most_in = 3) {
  for (;;) {
    ConvProblem p;
    p.op = op;
    p.spatial_rank = rank;
    p.batch = pick(rng, 1, 2);
    p.groups = pick(rng, 1, 3);
    p.in_channels = p.groups * pick(rng, 1, most_in);
    p.out_channels = p.groups * pick(rng, 1, 3);
    p.bias = pick(rng, 0, 1) == 1;
    for (int d = 0; d < rank; ++d) {
      const bool depth = rank == 3 && d == 0;
      p.kernel[d] = pick(rng, 1, depth ? 3 : 7);
      p.stride[d] = pick(rng, 1, depth ? 2 : 4);
      p.dilation[d] = pick(rng, 1, depth ? 2 : 3);
      p.pad_before[d] = pick(rng, 0, 3);
      p.pad_after[d] = pick(rng, 0, 3);
      if (op == OpKind::conv_transpose) p.output_padding[d] = pick(rng, 0, p.stride[d] - 1);
      // Transposed outputs are about stride times the input: smaller inputs keep them past a tile.
      const std::int64_t most = rank == 1 ? 9000 : (depth ? 6 : (rank == 3 ? 80 : 150));
      p.input[d] = pick(rng, 1, op == OpKind::conv_transpose && !depth ? most / 2 : most);
    }
    if (validate_problem(p).ok) return p;
  }
}

ConvProblem conv2d(std::int64_t channels, std::int64_t groups, std::int64_t out_channels, std::int64_t h,
                   std::int64_t w, std::int64_t k, std::int64_t stride, std::int64_t dilation, std::int64_t pad) {
  ConvProblem p;
  p.spatial_rank = 2;
  p.in_channels = channels;
  p.groups = groups;
  p.out_channels = out_channels;
  p.input = Dims{{h, w, 1}};
  p.kernel = Dims{{k, k, 1}};
  p.stride = Dims{{stride, stride, 1}};
  p.dilation = Dims{{dilation, dilation, 1}};
  p.pad_before = p.pad_after = Dims{{pad, pad, 0}};
  return p;
}

struct TapErrors {
  std::int64_t steps = 0, taps = 0, padding = 0;
};

// Transposed: output i of a thread (tile-relative o) gathers, for every stack item, exactly the
// (kd, kh, kw) whose tap lands on it from an input, each read at that input's window element, from
// the window pointer the kernel steps to, with the thread's fixed taps (its origin's).
TapErrors check_transposed_taps(const ConvProblem& p3, const dt::DirectTiledParams& d, const dt::BlockTile& b,
                                const dt::ThreadOutput& origin, int i, const dt::ThreadOutput& o) {
  TapErrors e;
  const std::int64_t oh = b.row0 + o.row, ow = b.col0 + o.col;
  const dt::ThreadTaps rows = dt::thread_row_taps(d, b, origin), cols = dt::thread_col_taps(d, b, origin);
  // The kernel's pointer for output i, and where output i's own taps start.
  const dt::ThreadTaps own_rows = dt::thread_taps(d.phase_h, oh, b.in_row0);
  const dt::ThreadTaps own_cols = dt::thread_taps(d.phase_w, ow, b.in_col0);
  if (own_rows.count != rows.count || own_cols.count != cols.count || own_rows.first_tap != rows.first_tap ||
      own_cols.first_tap != cols.first_tap)
    ++e.steps;  // the phase changed between a thread's outputs
  if (rows.count > 0 && cols.count > 0 &&
      own_rows.window_first * d.window_cols + own_cols.window_first !=
          rows.window_first * d.window_cols + cols.window_first + i * dt::window_step(d))
    ++e.steps;
  const std::int64_t n = b.image_group / d.groups, g = b.image_group % d.groups;
  // Which (kh, kw) the kernel visits for this output, and where it reads them.
  std::vector<int> visited(static_cast<std::size_t>(d.taps2d()), 0);
  for (int jh = 0; jh < rows.count; ++jh)
    for (int jw = 0; jw < cols.count; ++jw) {
      const std::int64_t kh = rows.first_tap + jh * rows.tap_step, kw = cols.first_tap + jw * cols.tap_step;
      const int wr = own_rows.window_first - jh * rows.window_back, wc = own_cols.window_first - jw * cols.window_back;
      if (kh >= d.kernel_h || kw >= d.kernel_w || wr < 0 || wr >= d.window_rows || wc < 0 || wc >= d.window_cols) {
        ++e.taps;
        continue;
      }
      ++visited[static_cast<std::size_t>(kh * d.kernel_w + kw)];
      // Input (b.in_row0 + wr, b.in_col0 + wc) through tap (kh, kw) lands on (oh, ow).
      if ((b.in_row0 + wr) * p3.stride[1] - p3.pad_before[1] + kh * p3.dilation[1] != oh ||
          (b.in_col0 + wc) * p3.stride[2] - p3.pad_before[2] + kw * p3.dilation[2] != ow)
        ++e.taps;
      const std::int64_t ih = b.in_row0 + wr, iw = b.in_col0 + wc;
      if (dt::window_in_input(d, b, wr, wc) != (ih >= 0 && ih < d.in_h && iw >= 0 && iw < d.in_w)) ++e.padding;
    }
  // Brute force: the taps landing on (oh, ow) from some input coordinate (inside or not: outside,
  // the window holds zeros), each visited once.
  for (std::int64_t kh = 0; kh < d.kernel_h; ++kh)
    for (std::int64_t kw = 0; kw < d.kernel_w; ++kw) {
      const bool lands =
          geometry::floor_div(oh + p3.pad_before[1] - kh * p3.dilation[1], p3.stride[1]) * p3.stride[1] ==
              oh + p3.pad_before[1] - kh * p3.dilation[1] &&
          geometry::floor_div(ow + p3.pad_before[2] - kw * p3.dilation[2], p3.stride[2]) * p3.stride[2] ==
              ow + p3.pad_before[2] - kw * p3.dilation[2];
      if (visited[static_cast<std::size_t>(kh * d.kernel_w + kw)] != (lands ? 1 : 0)) ++e.taps;
    }
  // Depth: item s = c * KD + kd reads input depth id where id * SD - PD + kd * DD = od.
  for (int s = 0; s < d.stack(); ++s) {
    const std::int64_t c = s / d.kernel_d, kd = s % d.kernel_d;
    std::int64_t expected = -1;
    for (std::int64_t id = 0; id < d.in_d; ++id)
      if (id * p3.stride[0] - p3.pad_before[0] + kd * p3.dilation[0] == b.od)
        expected = (n * p3.in_channels + g * d.cin_per_group + c) * d.in_d + id;
    if (dt::stack_input_plane(d, b, s) != expected) ++e.taps;
  }
  return e;
}

// Each pass's weight tile element i (output channel j of the group, the pass's item q = stack item
// s, 2-D tap t) comes from the element PyTorch's layout holds for it, the last pass's items past the
// stack from nowhere, and every weight of the group is copied once over the passes.
void check_weight_sources(const ConvProblem& p) {
  const dt::DirectTiledParams d = dt::make_params(p).desc;
  const ConvProblem p3 = as_rank3(p);
  const std::int64_t g = p3.groups - 1;  // the last group: its weights start g * weight_floats() in
  std::vector<int> copied(static_cast<std::size_t>(d.weight_floats()), 0);
  std::int64_t wrong = 0;
  for (int pass = 0; pass < d.passes(); ++pass)
    for (int j = 0; j < d.multiplier; ++j)
      for (int q = 0; q < d.chunk; ++q)
        for (int t = 0; t < d.taps2d(); ++t) {
          const int i = (j * d.chunk + q) * d.taps2d() + t;
          const int s = pass * d.chunk + q;
          const int src = dt::weight_source(d, pass, i);
          if (q >= d.pass_items(pass)) {
            wrong += src != -1 ? 1 : 0;
            continue;
          }
          const std::int64_t c = s / d.kernel_d, kd = s % d.kernel_d, co = g * d.multiplier + j,
                             ci = g * d.cin_per_group + c;
          const Dims tap{{kd, t / d.kernel_w, t % d.kernel_w}};
          const std::int64_t expected =
              p3.transposed() ? geometry::weight_index(p3, ci, j, tap) : geometry::weight_index(p3, co, c, tap);
          if (src < 0 || src >= d.weight_floats()) {
            ++wrong;
            continue;
          }
          ++copied[static_cast<std::size_t>(src)];
          if (g * d.weight_floats() + src != expected) ++wrong;
        }
  CHECK(wrong == 0);
  std::int64_t not_once = 0;
  for (const int c : copied) not_once += c != 1 ? 1 : 0;
  CHECK(not_once == 0);
}

// The items the kernel neither copies nor computes are exactly dead ones (no input plane), all of
// them where the stack has at most 32 items, and "all live" means that. Returns the errors.
int check_live_items(const dt::DirectTiledParams& d, const dt::BlockTile& b) {
  const std::uint32_t live = dt::live_items(d, b);
  int errors = 0;
  bool every = true;
  for (int s = 0; s < d.stack(); ++s) {
    const bool dead = dt::stack_input_plane(d, b, s) < 0;
    if (!dt::item_live(live, s) && !dead) ++errors;  // a skipped item that reads input
    if (dead && d.stack() <= dt::kMaxSkippableStack && dt::item_live(live, s)) ++errors;  // a dead one computed
    every = every && dt::item_live(live, s);
  }
  if (dt::all_items_live(d, live) != every) ++errors;
  return errors;
}

// Checks the launch of `p`'s tiling covers its outputs once and reads the right window elements.
void check_tiling(const ConvProblem& p) {
  const dt::ParamsFit tiling = dt::make_params(p);
  REQUIRE_MESSAGE(tiling.support.ok, tiling.support.reason);
  const dt::DirectTiledParams& d = tiling.desc;
  const ConvProblem p3 = as_rank3(p);
  CHECK(d.smem_bytes() <= dt::kMaxSmemBytes);
  // The passes take every stack item once, in order; partial sums only where there are several.
  int items = 0;
  for (int pass = 0; pass < d.passes(); ++pass) items += d.pass_items(pass) >= 1 ? d.pass_items(pass) : 1000000;
  CHECK(items == d.stack());
  CHECK((d.partial_floats() > 0) == (d.passes() > 1));
  CHECK((d.passes() == 1 || d.multiplier <= dt::kMaxChunkedMultiplier));
  CHECK(d.threads_w % 32 == 0);
  CHECK(dt::kThreads % d.threads_w == 0);
  REQUIRE(d.out_d == p3.output_extent(0));
  REQUIRE(d.out_h == p3.output_extent(1));
  REQUIRE(d.out_w == p3.output_extent(2));
  REQUIRE(d.stack() == p3.in_channels_per_group() * p3.kernel[0]);

  // One count per (image, group, output depth, row, column): the m output channels share it.
  std::vector<int> computed(static_cast<std::size_t>(d.images_groups * d.out_d * d.out_h * d.out_w), 0);
  std::int64_t wrong_taps = 0, wrong_padding = 0, copied_not_once = 0, outside_tile = 0, wrong_count = 0,
               wrong_steps = 0, wrong_live = 0;
  for (std::int64_t block = 0; block < d.blocks(); ++block) {
    const dt::BlockTile b = dt::block_tile(d, block);
    REQUIRE(b.image_group < d.images_groups);
    REQUIRE(b.od < d.out_d);
    const std::int64_t n = b.image_group / d.groups, g = b.image_group % d.groups;
    wrong_live += check_live_items(d, b);
    // The copy: every element of one window once (the kernel repeats it per stack item).
    std::vector<int> copied(static_cast<std::size_t>(d.window_floats()), 0);
    for (int seg = 0; seg < d.segments_per_window(); ++seg)
      for (int lane = 0; lane < 32; ++lane) {
        const dt::Segment sg = dt::window_segment(d, seg);
        if (sg.col + lane < d.window_cols) ++copied[static_cast<std::size_t>(sg.row * d.window_cols + sg.col + lane)];
      }
    for (const int c : copied) copied_not_once += c != 1 ? 1 : 0;
    // The arithmetic: each thread's outputs, as the kernel steps to them, each stack item and tap.
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
        // The kernel reaches output i by stepping both pointers i times from the origin (the window
        // pointer of a transposed tile: checked with its taps).
        if ((!p.transposed() && dt::window_index(d, o.row, o.col, 0, 0) !=
                                    dt::window_index(d, origin.row, origin.col, 0, 0) + i * dt::window_step(d)) ||
            oh * d.out_w + ow != (b.row0 + origin.row) * d.out_w + b.col0 + origin.col + i * dt::output_step(d))
          ++wrong_steps;
        ++computed[static_cast<std::size_t>(((b.image_group * d.out_d + b.od) * d.out_h + oh) * d.out_w + ow)];
        if (p.transposed()) {
          const TapErrors e = check_transposed_taps(p3, d, b, origin, i, o);
          wrong_steps += e.steps;
          wrong_taps += e.taps;
          wrong_padding += e.padding;
          continue;
        }
        for (int s = 0; s < d.stack(); ++s) {
          const std::int64_t c = s / d.kernel_d, kd = s % d.kernel_d;
          const std::int64_t id = b.od * p3.stride[0] - p3.pad_before[0] + kd * p3.dilation[0];
          const std::int64_t plane = dt::stack_input_plane(d, b, s);
          const bool depth_inside = id >= 0 && id < d.in_d;
          const std::int64_t expected_plane = (n * p3.in_channels + g * d.cin_per_group + c) * d.in_d + id;
          if (depth_inside ? plane != expected_plane : plane != -1) ++wrong_taps;
          for (std::int64_t kh = 0; kh < p3.kernel[1]; ++kh)
            for (std::int64_t kw = 0; kw < p3.kernel[2]; ++kw) {
              const std::int64_t ih = oh * p3.stride[1] - p3.pad_before[1] + kh * p3.dilation[1];
              const std::int64_t iw = ow * p3.stride[2] - p3.pad_before[2] + kw * p3.dilation[2];
              const int at = dt::window_index(d, o.row, o.col, static_cast<int>(kh), static_cast<int>(kw));
              const int wr = at / d.window_cols, wc = at % d.window_cols;
              // The column must not wrap into the next window row.
              const std::int64_t col_in_window = o.col * d.stride_w + kw * d.dilation_w;
              if (at < 0 || at >= d.window_floats() || col_in_window >= d.window_cols || b.in_row0 + wr != ih ||
                  b.in_col0 + wc != iw)
                ++wrong_taps;
              const bool in_input = depth_inside && ih >= 0 && ih < d.in_h && iw >= 0 && iw < d.in_w;
              if ((plane >= 0 && dt::window_in_input(d, b, wr, wc)) != in_input) ++wrong_padding;
            }
        }
      }
    }
  }
  CHECK(copied_not_once == 0);
  CHECK(wrong_live == 0);
  CHECK(wrong_count == 0);
  CHECK(wrong_steps == 0);
  CHECK(outside_tile == 0);
  CHECK(wrong_taps == 0);
  CHECK(wrong_padding == 0);
  std::int64_t not_once = 0;
  for (const int c : computed) not_once += c != 1 ? 1 : 0;
  CHECK_MESSAGE(not_once == 0, not_once << " of " << computed.size() << " outputs not computed exactly once");
}

// Checks the tiling and the weight copy of `trials` random problems of kind `op` (ranks 1 to 3 in
// turn); returns how many give a thread several outputs.
int check_random_problems(std::uint64_t seed, OpKind op, int trials, std::int64_t most_in = 3) {
  std::mt19937_64 rng(kbench::testing::test_seed(seed));
  int refused = 0, stepped = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const ConvProblem p = random_small_groups(rng, 1 + trial % 3, op, most_in);
    const dt::ParamsFit tiling = dt::make_params(p);
    // Wide strides and dilations on several channels can exceed the 48 KB (tested below).
    if (!tiling.support.ok) {
      ++refused;
      continue;
    }
    CAPTURE(trial);
    CAPTURE(p.spatial_rank);
    CAPTURE(p.groups);
    CAPTURE(p.in_channels);
    CAPTURE(p.out_channels);
    CAPTURE(p.kernel[0]);
    CAPTURE(p.stride[0]);
    CAPTURE(p.dilation[0]);
    check_tiling(p);
    check_weight_sources(p);
    stepped += tiling.desc.per_thread > 1 ? 1 : 0;
  }
  CHECK(refused < trials / 10);
  return stepped;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("direct_tiled: every output once, every tap at its input coordinate, every window copied once") {
    check_random_problems(2101, OpKind::conv, 180);
  }

  TEST_CASE(
      "direct_tiled transposed: every output once, exactly its phase's taps, each at its input, weights reordered") {
    const int stepped = check_random_problems(2103, OpKind::conv_transpose, 150);
    CHECK(stepped > 150 / 3);  // strides dividing the threads: several outputs a thread, one phase
  }

  TEST_CASE("direct_tiled in passes: many input channels per group, few output channels, forward and transposed") {
    // Up to 160 input channels a group (stacks up to 480 items): most need passes; each pass's
    // windows, weights and the partial sums fit, the passes take every item once, the tiling and the
    // weights as above.
    for (const OpKind op : {OpKind::conv, OpKind::conv_transpose}) {
      const std::uint64_t seed = op == OpKind::conv ? 2107 : 2108;
      // At least 60 problems, and on until 15 of them take passes (whatever the seed draws; 1-D
      // problems mostly fit one pass, one row of windows); then those same problems are checked.
      std::mt19937_64 rng(kbench::testing::test_seed(seed));
      int in_passes = 0, trials = 0;
      for (; trials < 60 || in_passes < 15; ++trials) {
        REQUIRE_MESSAGE(trials < 240, "the random problems rarely take passes: " << in_passes << " of " << trials);
        const dt::ParamsFit tiling = dt::make_params(random_small_groups(rng, 1 + trials % 3, op, 160));
        in_passes += tiling.support.ok && tiling.desc.passes() > 1 ? 1 : 0;
      }
      check_random_problems(seed, op, trials, 160);
    }
    // A regression head, 64 -> 1 3x3 on 256 x 256: passes of at least 8 items, not a tile of 1.
    const dt::DirectTiledParams head = dt::make_params(conv2d(64, 1, 1, 256, 256, 3, 1, 1, 1)).desc;
    CHECK(head.passes() > 1);
    CHECK(head.chunk >= dt::kPreferredChunk);
    CHECK(head.smem_bytes() <= dt::kMaxSmemBytes);
    // DCGAN's last layer, transposed 64 -> 3, kernel 4, stride 2, padding 1: its windows are small
    // (a quarter of the outputs' extent), one pass of 4 x 64 tiles. pix2pix's, 128 -> 3: passes.
    ConvProblem dcgan = conv2d(64, 1, 3, 32, 32, 4, 2, 1, 1);
    dcgan.op = OpKind::conv_transpose;
    const dt::ParamsFit dcgan_tiling = dt::make_params(dcgan);
    REQUIRE(dcgan_tiling.support.ok);
    CHECK(dcgan_tiling.desc.passes() == 1);
    check_tiling(dcgan);
    ConvProblem pix2pix = conv2d(128, 1, 3, 128, 128, 4, 2, 1, 1);
    pix2pix.op = OpKind::conv_transpose;
    const dt::ParamsFit pix2pix_tiling = dt::make_params(pix2pix);
    REQUIRE(pix2pix_tiling.support.ok);
    CHECK(pix2pix_tiling.desc.passes() > 1);
    check_weight_sources(pix2pix);
    // Eight output channels per group with a deep stack: the GEMM's, not passes.
    CHECK_FALSE(dt::make_params(conv2d(256, 1, 8, 56, 56, 3, 1, 1, 1)).support.ok);
  }

  TEST_CASE("direct_tiled: dead stack items skipped up to 32 items, at 32 and past it") {
    // 3-D, depth kernel 2 with depth padding 1: the first and last output depths have a dead tap.
    // Stacks of 32 (16 channels a group) and 34 (17) items.
    for (const std::int64_t channels : {16, 17}) {
      ConvProblem p = conv2d(channels, 1, 2, 6, 40, 3, 1, 1, 1);
      p.spatial_rank = 3;
      p.input = Dims{{3, 6, 40}};
      p.kernel = Dims{{2, 3, 3}};
      p.stride = p.dilation = Dims{{1, 1, 1}};
      p.pad_before = p.pad_after = Dims{{1, 1, 1}};
      const dt::ParamsFit tiling = dt::make_params(p);
      REQUIRE(tiling.support.ok);
      const dt::DirectTiledParams& d = tiling.desc;
      CHECK(d.stack() == 2 * channels);
      const dt::BlockTile first = dt::block_tile(d, 0);  // output depth 0: depth tap 0 in the padding
      REQUIRE(first.od == 0);
      CHECK(check_live_items(d, first) == 0);
      CHECK(dt::all_items_live(d, dt::live_items(d, first)) == (channels == 17));  // past 32 items, all "live"
      CHECK(dt::item_live(dt::live_items(d, first), 1));                      // channel 0, depth tap 1: input depth 0
      CHECK(dt::item_live(dt::live_items(d, first), 0) == (channels == 17));  // dead, skipped up to 32 items
      check_tiling(p);
    }
  }

  TEST_CASE("direct_tiled: tile choices for common shapes") {
    // MobileNet's stride-2 depthwise 3x3 on 112x112: 64 threads across, 8 rows each (32 x 64 outputs),
    // one 65 x 129 window (33.5 KB).
    const dt::DirectTiledParams mobile = dt::make_params(conv2d(32, 32, 32, 112, 112, 3, 2, 1, 1)).desc;
    CHECK(mobile.threads_w == 64);
    CHECK(mobile.per_thread == 8);
    CHECK(mobile.along_rows);
    CHECK(mobile.tile_rows() == 32);
    CHECK(mobile.stack() == 1);
    CHECK(mobile.window_rows == 65);
    CHECK(mobile.window_cols == 129);
    CHECK(mobile.tiles_h == 2);
    CHECK(mobile.tiles_w == 1);
    CHECK(dt::instance_kernel(mobile) == 3);
    // A 7x7 output: 32 threads across, one row each (8 x 32), one tile per plane.
    const dt::DirectTiledParams small = dt::make_params(conv2d(960, 960, 960, 7, 7, 5, 1, 1, 2)).desc;
    CHECK(small.threads_w == 32);
    CHECK(small.per_thread == 1);
    CHECK(small.blocks() == 960);
    CHECK(dt::instance_kernel(small) == 5);
    // ResNeXt's grouped 3x3 (128 channels in 32 groups of 4) on 56x56: a stack of 4 windows.
    const dt::DirectTiledParams resnext = dt::make_params(conv2d(128, 32, 128, 56, 56, 3, 1, 1, 1)).desc;
    CHECK(resnext.stack() == 4);
    CHECK(resnext.multiplier == 4);
    CHECK(resnext.smem_bytes() <= dt::kMaxSmemBytes);
    // One output row on 32 threads across (the 256-wide tile does not fit): a window of one row of
    // outputs' inputs, not threads_h rows' (found by review: stride 56 was refused, 48 took 48 KB).
    ConvProblem strided_line;
    strided_line.spatial_rank = 1;
    strided_line.in_channels = strided_line.groups = 1;
    strided_line.out_channels = 64;
    strided_line.input = Dims{{std::int64_t{1} << 20, 1, 1}};
    strided_line.kernel = Dims{{5, 1, 1}};
    strided_line.stride = Dims{{56, 1, 1}};
    const dt::ParamsFit strided_tiling = dt::make_params(strided_line);
    REQUIRE(strided_tiling.support.ok);
    CHECK(strided_tiling.desc.window_rows == 1);
    CHECK_FALSE(strided_tiling.desc.along_rows);
    check_tiling(strided_line);
    // 1-D: one row of 256 threads, 16 columns each.
    ConvProblem line;
    line.spatial_rank = 1;
    line.in_channels = line.groups = 4;
    line.out_channels = 8;
    line.input = Dims{{100000, 1, 1}};
    line.kernel = Dims{{5, 1, 1}};
    const dt::DirectTiledParams one_row = dt::make_params(line).desc;
    CHECK(one_row.threads_w == 256);
    CHECK(one_row.per_thread == 16);
    CHECK_FALSE(one_row.along_rows);
    CHECK(one_row.tile_cols() == 4096);
    CHECK(one_row.multiplier == 2);
    CHECK(dt::instance_kernel(one_row) == 0);  // 1 x 5: taps looped
    // 3-D depthwise 3x3x3: three windows (one per depth tap), one block row of planes per output depth.
    ConvProblem video = conv2d(16, 16, 16, 28, 28, 3, 1, 1, 1);
    video.spatial_rank = 3;
    video.input = Dims{{8, 28, 28}};
    video.kernel = Dims{{3, 3, 3}};
    video.stride = Dims{{1, 1, 1}};
    video.dilation = Dims{{1, 1, 1}};
    video.pad_before = video.pad_after = Dims{{1, 1, 1}};
    const dt::DirectTiledParams x3d = dt::make_params(video).desc;
    CHECK(x3d.stack() == 3);
    CHECK(x3d.out_d == 8);
    CHECK(x3d.blocks() == 16 * 8 * x3d.tiles_h * x3d.tiles_w);
    CHECK(dt::instance_kernel(x3d) == 3);
    // Problem 84's shape: 16 rows a thread, 64 x 64 tiles, 66 x 66 windows (17 KB).
    ConvProblem s84 = conv2d(128, 128, 128, 256, 512, 3, 1, 1, 0);
    const dt::DirectTiledParams d84 = dt::make_params(s84).desc;
    CHECK(d84.per_thread == 16);
    CHECK(d84.tile_rows() == 64);
    CHECK(d84.window_rows == 66);
    CHECK(d84.window_cols == 66);
    // A window that does not fit at 8 rows a thread: fewer rows.
    const dt::DirectTiledParams dilated = dt::make_params(conv2d(8, 8, 8, 600, 600, 3, 4, 3, 3)).desc;
    CHECK(dilated.per_thread < 8);
    CHECK(dilated.smem_bytes() <= dt::kMaxSmemBytes);
  }

  TEST_CASE("direct_tiled: windows or weights beyond 48 KB of shared memory are refused, not overflowed") {
    const dt::ParamsFit huge_dilation = dt::make_params(conv2d(2, 2, 2, 1 << 20, 64, 3, 1, 100000, 0));
    CHECK_FALSE(huge_dilation.support.ok);
    CHECK(huge_dilation.support.reason.find("48 KB") != std::string::npos);
    CHECK_FALSE(dt::make_params(conv2d(1, 1, 4096, 16, 16, 7, 1, 1, 3)).support.ok);  // 200 K weights
    CHECK_FALSE(dt::make_params(conv2d(256, 1, 64, 56, 56, 3, 1, 1, 1)).support.ok);  // 256 windows
    // Dilation near 2^30: the window's extent alone exceeds the limit (no 64-bit overflow on the way).
    ConvProblem far;
    far.spatial_rank = 1;
    far.in_channels = far.groups = far.out_channels = 1;
    far.input = Dims{{(std::int64_t{1} << 29) + 5, 1, 1}};
    far.kernel = Dims{{2, 1, 1}};
    far.dilation = Dims{{std::int64_t{1} << 29, 1, 1}};
    CHECK_FALSE(dt::make_params(far).support.ok);
  }

}  // TEST_SUITE

}  // namespace kbench
