// The channels-last depthwise kernel's index arithmetic (depthwise_nhwc/depthwise_nhwc_index.hpp)
// against brute force: the launch, run on the CPU exactly as the kernel runs it (weights staged into
// the shared slice, row taps, each tap's columns of the run, the stores), computes every output
// once, from exactly the (input, weight) pairs the convolution defines, read and written where
// problem/memory_layout.hpp puts them, every vector 16-byte aligned; a run's columns, outputs past
// the row reading nothing; the tilings of problem 84, 1-D, partial slices and long kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/depthwise_nhwc/depthwise_nhwc_index.hpp"
#include "problem/memory_layout.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace dn = gpu::conv::depthwise_nhwc;
using test::Pair;
using test::pick;

// A random depthwise NHWC problem: 1-D to 3-D, C a multiple of the dtype's vector width (up to 11
// vectors: some take two slices), every stride, dilation and padding; widths past a tile.
ConvProblem random_depthwise(std::mt19937_64& rng, DType dtype) {
  for (;;) {
    ConvProblem p;
    p.dtype = dtype;
    p.layout = Layout::nhwc;
    p.spatial_rank = static_cast<int>(pick(rng, 1, 3));
    p.batch = pick(rng, 1, 2);
    p.in_channels = p.out_channels = p.groups = dn::vector_width(dtype) * pick(rng, 1, 11);
    p.bias = pick(rng, 0, 1) == 1;
    const std::int64_t limits[3][3] = {{300, 1, 1}, {12, 45, 1}, {4, 6, 12}};
    for (int d = 0; d < p.spatial_rank; ++d) {
      p.kernel[d] = pick(rng, 1, 4);
      p.stride[d] = pick(rng, 1, 4);
      p.dilation[d] = pick(rng, 1, 3);
      p.pad_before[d] = pick(rng, 0, 3);
      p.pad_after[d] = pick(rng, 0, 3);
      p.input[d] = pick(rng, 1, limits[p.spatial_rank - 1][d]);
    }
    if (validate_problem(p).ok) return p;
  }
}

// Logical (NCHW-order) index of an output element of rank-3 problem p3.
std::int64_t output_logical(const dn::Params& t, std::int64_t n, std::int64_t d, std::int64_t h, std::int64_t w,
                            std::int64_t c) {
  return (((n * t.p3.out_channels + c) * t.out[0] + d) * t.out[1] + h) * t.out[2] + w;
}

// The pairs brute force says feed logical output `out`, as (input memory offset, weight memory offset).
std::vector<Pair> expected_pairs(const ConvProblem& p3, std::int64_t out) {
  std::vector<Pair> pairs;
  for (const auto& [input, weight] : test::brute_force_pairs(p3, out))
    pairs.emplace_back(memory_offset(p3, Operand::input, input), memory_offset(p3, Operand::weight, weight));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Runs the launch of `p` on the CPU as the kernel does and checks it against brute force.
void check_launch(const ConvProblem& p) {
  const dn::Params t = dn::make_params(p);
  const ConvProblem& p3 = t.p3;
  REQUIRE(t.slice_vectors > 0);
  REQUIRE(t.tile_rows * t.tile_cols * t.slice_vectors <= dn::kThreads);
  const int v = t.vector, sc = t.slice_channels();
  const std::int64_t kvol = p3.kernel_volume();
  std::vector<int> written(static_cast<std::size_t>(p3.output_elements()), 0);
  for (std::int64_t block = 0; block < t.blocks(); ++block) {
    const dn::BlockOrigin b = dn::block_origin(t, block);
    REQUIRE(b.vectors >= 1);
    REQUIRE(b.vectors <= t.slice_vectors);
    const std::int64_t c0 = b.vector0 * v;
    // The staging loop: shared slot -> the weight it holds (-1: a zero past C), each slot once.
    std::vector<std::int64_t> slot(static_cast<std::size_t>(sc * kvol), -2);
    REQUIRE(dn::weight_offset(t, 1, 0) == kvol);
    for (std::int64_t i = 0; i < sc * kvol; ++i) {
      const std::int64_t ch = i / kvol, tap = i - ch * kvol;
      std::int64_t& s = slot[static_cast<std::size_t>(tap * sc + ch)];
      REQUIRE(s == -2);
      s = i < b.vectors * v * kvol ? dn::weight_offset(t, c0, 0) + i : -1;
    }
    for (int thread = 0; thread < dn::kThreads; ++thread) {
      const dn::ThreadRun run = dn::thread_run(t, b, thread);
      if (!run.active) continue;
      REQUIRE(run.outputs >= 1);
      REQUIRE(run.outputs <= dn::kRun);
      const std::int64_t c = c0 + std::int64_t{run.vector} * v;
      std::vector<Pair> got[dn::kRun][8];
      const dn::RunColumns columns = dn::run_columns(t, run);
      for (std::int64_t kd = 0; kd < p3.kernel[0]; ++kd) {
        const std::int64_t id = dn::input_coord(t, 0, b.depth, kd);
        if (id < 0 || id >= p3.input[0]) continue;
        for (std::int64_t kh = 0; kh < p3.kernel[1]; ++kh) {
          const std::int64_t ih = dn::input_coord(t, 1, run.row, kh);
          if (ih < 0 || ih >= p3.input[1]) continue;
          const std::int64_t line = dn::input_offset(t, b.image, id, ih, 0, c);
          const std::int64_t row_taps = (kd * p3.kernel[1] + kh) * p3.kernel[2] * sc + run.vector * v;
          for (std::int64_t kx = 0; kx < p3.kernel[2]; ++kx)
            for (int r = 0; r < dn::kRun; ++r) {
              const int column = columns.first[r] + static_cast<int>(kx * p3.dilation[2]);
              if (!dn::column_inside(t, column)) continue;
              REQUIRE(r < run.outputs);  // an output past the row reads nothing
              const std::int64_t at = line + dn::input_offset(t, 0, 0, 0, column, 0);
              REQUIRE(at % v == 0);  // a 16-byte aligned vector
              for (int e = 0; e < v; ++e) {
                const std::int64_t w = slot[static_cast<std::size_t>(row_taps + kx * sc + e)];
                REQUIRE(w >= 0);
                got[r][e].emplace_back(at + e, w);
              }
            }
        }
      }
      for (int r = 0; r < run.outputs; ++r) {
        const std::int64_t offset = dn::output_offset(t, b.image, b.depth, run.row, run.col0 + r, c);
        REQUIRE(offset % v == 0);
        for (int e = 0; e < v; ++e) {
          const std::int64_t logical = output_logical(t, b.image, b.depth, run.row, run.col0 + r, c + e);
          REQUIRE(memory_offset(p3, Operand::output, logical) == offset + e);
          ++written[static_cast<std::size_t>(logical)];
          std::sort(got[r][e].begin(), got[r][e].end());
          CAPTURE(logical);
          REQUIRE(got[r][e] == expected_pairs(p3, logical));
        }
      }
    }
  }
  CHECK(std::all_of(written.begin(), written.end(), [](int n) { return n == 1; }));
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("depthwise NHWC: every output once, from exactly the convolution's pairs, at their NHWC offsets") {
    std::mt19937_64 rng(testing::test_seed(2410));
    int two_slices = 0, column_tiles = 0;
    for (int trial = 0; trial < 90; ++trial) {
      const DType dtype = static_cast<DType>(trial % 3);
      const ConvProblem p = random_depthwise(rng, dtype);
      const dn::Params t = dn::make_params(p);
      CAPTURE(trial);
      CAPTURE(to_string(dtype));
      CAPTURE(p.spatial_rank);
      CAPTURE(p.in_channels);
      two_slices += t.slices > 1 ? 1 : 0;
      column_tiles += t.col_tiles > 1 ? 1 : 0;
      check_launch(p);
    }
    CHECK(two_slices >= 10);  // a narrower last slice
    CHECK(column_tiles >= 5);
  }

  TEST_CASE("depthwise NHWC: a run's columns, and outputs past the row reading nothing even at 2^30 extents") {
    std::mt19937_64 rng(testing::test_seed(2411));
    for (int trial = 0; trial < 40; ++trial) {
      const ConvProblem p = random_depthwise(rng, DType::fp16);
      const dn::Params t = dn::make_params(p);
      const ConvProblem& p3 = t.p3;
      for (std::int64_t block = 0; block < t.blocks(); ++block)
        for (int thread = 0; thread < dn::kThreads; ++thread) {
          const dn::ThreadRun run = dn::thread_run(t, dn::block_origin(t, block), thread);
          if (!run.active) continue;
          const dn::RunColumns columns = dn::run_columns(t, run);
          for (int r = 0; r < dn::kRun; ++r)
            for (std::int64_t kx = 0; kx < p3.kernel[2]; ++kx) {
              const std::int64_t column = columns.first[r] + kx * p3.dilation[2];
              if (r < run.outputs)
                REQUIRE(column == dn::input_coord(t, 2, run.col0 + r, kx));
              else
                REQUIRE_FALSE(dn::column_inside(t, static_cast<int>(column)));
            }
        }
    }
    // The longest reach the fast paths take: an output past the row still lands left of the input.
    ConvProblem line = testing::headline84();
    line.layout = Layout::nhwc;
    line.spatial_rank = 1;
    line.batch = 1;
    line.in_channels = line.out_channels = line.groups = 8;
    line.input = Dims{{(std::int64_t{1} << 29) + 3, 1, 1}};
    line.kernel = Dims{{2, 1, 1}};
    line.dilation = Dims{{(std::int64_t{1} << 29) - 1, 1, 1}};
    line.pad_before = line.pad_after = Dims{{(std::int64_t{1} << 28), 1, 1}};
    const dn::Params t = dn::make_params(line);
    const dn::ThreadRun run = dn::thread_run(t, dn::block_origin(t, 0), 0);
    REQUIRE(run.outputs == 4);
    dn::ThreadRun last = run;
    last.col0 = t.out[2] - 1;
    last.outputs = 1;
    const dn::RunColumns columns = dn::run_columns(t, last);
    for (int r = 1; r < dn::kRun; ++r) {
      CHECK(columns.first[r] == dn::RunColumns::kOutside);
      CHECK_FALSE(dn::column_inside(t, columns.first[r] + static_cast<int>(line.dilation[0])));
    }
  }

  TEST_CASE("depthwise NHWC: tilings of problem 84 in each dtype, 1-D rows, partial slices, long kernels") {
    ConvProblem p = testing::headline84();
    p.layout = Layout::nhwc;
    p.dtype = DType::fp16;
    dn::Params t = dn::make_params(p);
    CHECK(t.vector == 8);
    CHECK(t.slice_vectors == 8);  // 64 halves: 128 bytes a position
    CHECK(t.tile_rows == 4);
    CHECK(t.tile_cols * dn::kRun == 32);
    CHECK(t.slices == 2);
    CHECK(t.col_tiles == 16);  // 510 columns
    CHECK(t.row_tiles == 64);  // 254 rows
    CHECK(t.blocks() == std::int64_t{2} * 16 * 64 * 64);
    CHECK(t.smem_bytes() == 64 * 9 * 4);
    p.dtype = DType::fp32;
    t = dn::make_params(p);
    CHECK(t.vector == 4);
    CHECK(t.slice_channels() == 32);
    CHECK(t.blocks() == std::int64_t{4} * 16 * 64 * 64);
    // 1-D: one row, all threads along it; 24 fp16 channels: slices of 3 vectors, 85 runs per row.
    ConvProblem line = p;
    line.dtype = DType::fp16;
    line.spatial_rank = 1;
    line.in_channels = line.out_channels = line.groups = 24;
    line.input = Dims{{1000, 1, 1}};
    line.kernel = Dims{{5, 1, 1}};
    t = dn::make_params(line);
    CHECK(t.tile_rows == 1);
    CHECK(t.slice_vectors == 3);
    CHECK(t.tile_cols == 85);
    // 72 fp16 channels: a slice of 8 vectors and one of 1.
    ConvProblem wide = testing::headline84();
    wide.layout = Layout::nhwc;
    wide.dtype = DType::bf16;
    wide.in_channels = wide.out_channels = wide.groups = 72;
    t = dn::make_params(wide);
    CHECK(t.slices == 2);
    CHECK(dn::block_origin(t, 1).vectors == 1);
    // Long kernels narrow the slice to fit 48 KB: 13 x 13 x 13 taps of one fp16 vector do not fit.
    ConvProblem cube = wide;
    cube.spatial_rank = 3;
    cube.input = Dims{{20, 20, 20}};
    cube.kernel = Dims{{11, 11, 11}};
    t = dn::make_params(cube);
    CHECK(t.slice_vectors == 1);
    CHECK(t.smem_bytes() <= dn::kMaxSmemBytes);
    cube.kernel = Dims{{13, 13, 13}};
    CHECK(dn::make_params(cube).slice_vectors == 0);
  }
}

}  // namespace kbench
