// Depthwise 2-D tiling against brute force: every output covered once, every window slot reads the
// input element conv_geometry says its (output, tap) pair reads, from a neighbour the kernel fetches.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/depthwise/depthwise_index.hpp"
#include "problem/conv_geometry.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace dw = gpu::conv::depthwise;

ConvProblem random_depthwise(std::mt19937_64& rng) {
  for (;;) {
    ConvProblem p;
    p.spatial_rank = 2;
    p.batch = 1;
    p.groups = p.in_channels = p.out_channels = 1;
    const std::int64_t k = 3 + 2 * test::pick(rng, 0, 2);
    p.kernel = Dims{{k, k, 1}};
    p.pad_before = Dims{{test::pick(rng, 0, k - 1), test::pick(rng, 0, 1) * (k - 1) / 2, 0}};
    p.pad_after = Dims{{test::pick(rng, 0, k - 1), test::pick(rng, 0, k - 1), 0}};
    p.input = Dims{{test::pick(rng, 1, 70), 4 * test::pick(rng, 1, 300), 1}};
    if (p.output_extent(0) >= 1 && p.output_extent(1) >= 1) return p;
  }
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("depthwise slot sources stay within the neighbours the kernel shuffles") {
    for (const int k : {3, 5, 7})
      for (const int pad_left : {0, (k - 1) / 2}) {
        const int lo = dw::lowest_neighbour(pad_left), hi = dw::highest_neighbour(k, pad_left);
        CHECK(lo >= -1);
        CHECK(hi <= 2);
        for (int slot = 0; slot < k + 3; ++slot) {
          const dw::SlotSource s = dw::slot_source(pad_left, slot);
          CHECK(s.neighbour >= lo);
          CHECK(s.neighbour <= hi);
          CHECK(s.component >= 0);
          CHECK(s.component < 4);
          CHECK(4 * s.neighbour + s.component == slot - pad_left);
        }
      }
    CHECK(dw::highest_neighbour(3, 0) == 1);  // problem 84: two halo columns from the next lane
    CHECK(dw::lowest_neighbour(0) == 0);
  }

  TEST_CASE("depthwise tiling covers every output once and reads exactly its taps") {
    std::mt19937_64 rng(kbench::testing::test_seed(84));
    std::int64_t outputs = 0;
    for (int trial = 0; trial < 40; ++trial) {
      const ConvProblem p = random_depthwise(rng);
      const std::int64_t oh_n = p.output_extent(0), ow_n = p.output_extent(1);
      const dw::Params t = dw::make_params(dw::make_plane_params(1, 1, p.input[0], p.input[1], oh_n, ow_n,
                                                                p.pad_before[0], p.pad_before[1], p.kernel[0]));
      const int k = static_cast<int>(t.kernel);
      const int pad_left = static_cast<int>(t.pad_left);
      std::vector<int> hits(static_cast<std::size_t>(oh_n * ow_n), 0);
      for (std::int64_t block = 0; block < t.blocks(); ++block) {
        const dw::BlockTile b = dw::block_tile(t, block);
        REQUIRE(b.plane == 0);
        for (int thread = 0; thread < dw::kThreads; ++thread) {
          const std::int64_t col_base = dw::thread_col_base(b, thread);
          for (int j = 0; j < dw::kColsPerThread; ++j) {
            const std::int64_t ow = col_base + j;
            if (ow >= ow_n) continue;
            for (std::int64_t oh = b.row_begin; oh < b.row_end; ++oh) {
              ++hits[static_cast<std::size_t>(oh * ow_n + ow)];
              CHECK((oh * ow_n + col_base) % dw::store_width(ow_n) == 0);  // vector stores stay aligned
              for (int kh = 0; kh < k; ++kh)
                CHECK(dw::input_row(t, oh, kh) == geometry::conv_input_coord(p, 0, oh, kh));
              for (int kw = 0; kw < k; ++kw) {
                const int slot = j + kw;
                const dw::SlotSource s = dw::slot_source(pad_left, slot);
                CHECK(col_base + 4 * s.neighbour + s.component == geometry::conv_input_coord(p, 1, ow, kw));
                CHECK(dw::slot_column(t, col_base, slot) == geometry::conv_input_coord(p, 1, ow, kw));
                // The lane the kernel shuffles from owns exactly that float4 (inside the warp).
                const int lane = thread % 32 + s.neighbour;
                if (lane >= 0 && lane < 32)
                  CHECK(dw::thread_col_base(b, thread + s.neighbour) == col_base + 4 * s.neighbour);
              }
            }
          }
        }
      }
      for (std::size_t i = 0; i < hits.size(); ++i) REQUIRE(hits[i] == 1);
      outputs += oh_n * ow_n;
    }
    CHECK(outputs > 10000);
  }

  TEST_CASE("even rows off 16-byte alignment: every output stored once, 16-byte stores aligned, few 8-byte ones") {
    for (std::int64_t out_w = 2; out_w <= 1100; out_w += 4) {  // 2 mod 4: rows alternate alignment
      for (const bool shifted : {false, true}) {
        const std::int64_t row_start = shifted ? 6 : 8;  // element index of the row's first output
        std::vector<int> stored(static_cast<std::size_t>(out_w), 0);
        std::int64_t narrow = 0, wide = 0;
        const auto store = [&](std::int64_t col, int width) {
          CHECK((row_start + col) % width == 0);  // aligned to its own size
          for (int j = 0; j < width; ++j) {
            REQUIRE(col + j < out_w);
            ++stored[static_cast<std::size_t>(col + j)];
          }
          ++(width == 4 ? wide : narrow);
        };
        // Every lane of every warp of the segments the row spans (512 columns per 128-thread block).
        for (std::int64_t col_base = 0; col_base < out_w; col_base += dw::kColsPerThread) {
          const int lane = static_cast<int>((col_base / dw::kColsPerThread) % 32);
          const dw::RowStores st = dw::even_row_stores(shifted, lane, col_base, out_w);
          if (st.own4) store(col_base, 4);
          if (st.head2) store(col_base, 2);
          if (st.next4) store(col_base + 2, 4);
          if (st.tail2) store(col_base + 2, 2);
        }
        CHECK(std::all_of(stored.begin(), stored.end(), [](int v) { return v == 1; }));
        // 8-byte stores: at most two per warp (its first and last lanes) and one at the row end.
        CHECK(narrow <= 2 * ((out_w + 127) / 128) + 1);
        CHECK(wide >= (out_w - 8) / 4 - 2 * ((out_w + 127) / 128));
      }
    }
    // Which rows are shifted: problem 84's rows of 510 alternate, from plane to plane too (254 rows each).
    const dw::Params t = dw::make_params(dw::make_plane_params(64, 128, 256, 512, 254, 510, 0, 0, 3));
    CHECK_FALSE(dw::row_shifted(t, 0, 0));
    CHECK(dw::row_shifted(t, 0, 1));
    CHECK(dw::row_shifted(t, 0, 253));
    CHECK_FALSE(dw::row_shifted(t, 1, 0));
  }

  TEST_CASE("problem 84 tiling: one 512-column segment, 8 strips per plane, float2 stores for rows of 510") {
    const dw::Params t = dw::make_params(dw::make_plane_params(64, 128, 256, 512, 254, 510, 0, 0, 3));
    CHECK(t.segments == 1);
    CHECK(t.strips == 8);
    CHECK(t.blocks() == 64 * 128 * 8);
    CHECK(dw::store_width(510) == 2);
  }

}  // TEST_SUITE

}  // namespace kbench
