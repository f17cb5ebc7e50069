// The bulk-copy depthwise kernel's tiling (depthwise_bulk_index.hpp) against brute force: the
// shared window the kernel's copies and zero fills build holds, at the slot each (output, tap) pair
// reads, exactly the input element conv_geometry names (or a zero in the padding), every slot
// written once; every output is computed once; every bulk copy is 16-byte aligned and sized; the
// strips' stores tile each output plane.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/depthwise/depthwise_bulk_index.hpp"
#include "problem/conv_geometry.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace dw = gpu::conv::depthwise;

dw::BulkParamsFit tiling_for(const ConvProblem& p, std::int64_t stages = 1, std::int64_t planes = 1) {
  return dw::make_bulk_params(dw::make_plane_params(1, planes, p.input[0], p.input[1], p.output_extent(0),
                                                   p.output_extent(1), p.pad_before[0], p.pad_before[1], p.kernel[0]),
                              stages);
}

ConvProblem depthwise(std::int64_t k, Dims input, Dims pad_before, Dims pad_after) {
  ConvProblem p;
  p.spatial_rank = 2;
  p.groups = p.in_channels = p.out_channels = 1;
  p.kernel = Dims{{k, k, 1}};
  p.input = input;
  p.pad_before = pad_before;
  p.pad_after = pad_after;
  return p;
}

// A random problem the bulk tiling takes: kernel 3, 5 or 7, rows of 4 to 1,200 floats.
ConvProblem random_bulk(std::mt19937_64& rng) {
  for (;;) {
    const std::int64_t k = 3 + 2 * test::pick(rng, 0, 2);
    const ConvProblem p = depthwise(k, Dims{{test::pick(rng, 1, 80), 4 * test::pick(rng, 1, 300), 1}},
                                    Dims{{test::pick(rng, 0, k - 1), test::pick(rng, 0, 1) * (k - 1) / 2, 0}},
                                    Dims{{test::pick(rng, 0, k - 1), test::pick(rng, 0, k - 1), 0}});
    if (p.output_extent(0) >= 1 && p.output_extent(1) >= 1 && tiling_for(p).support.ok) return p;
  }
}

constexpr std::int64_t kUnset = -2, kZero = -1;

// The window of strip `s` as the kernel builds it: per slot, the plane-local input index it holds,
// kZero, or kUnset. Checks each copy's alignment and that no slot is written twice.
std::vector<std::int64_t> build_window(const dw::BulkParams& t, const dw::BulkStrip& s) {
  std::vector<std::int64_t> window(static_cast<std::size_t>(t.window_rows() * t.pitch), kUnset);
  std::int64_t twice = 0, outside = 0;
  const auto put = [&](std::int64_t slot, std::int64_t value) {
    if (slot < 0 || slot >= static_cast<std::int64_t>(window.size())) {
      ++outside;
      return;
    }
    twice += window[static_cast<std::size_t>(slot)] != kUnset ? 1 : 0;
    window[static_cast<std::size_t>(slot)] = value;
  };
  for (std::int64_t row = s.loaded_begin; row < s.loaded_end; ++row) {  // one bulk copy a row
    const std::int64_t src = (s.first_input_row + row) * t.in_w;
    for (std::int64_t stage = 0; stage < t.stages; ++stage)
      CHECK((t.window_offset_bytes(stage) + 4 * (row * t.pitch + t.margin)) % 16 == 0);
    CHECK((s.plane * t.in_h * t.in_w + src) * 4 % 16 == 0);
    CHECK(t.in_w * 4 % 16 == 0);
    for (std::int64_t c = 0; c < t.in_w; ++c) put(row * t.pitch + t.margin + c, src + c);
  }
  // The kernel's two zero loops, element by element.
  const std::int64_t margins = t.pitch - t.in_w, loaded = s.loaded_end - s.loaded_begin;
  for (std::int64_t z = 0; z < loaded * margins; ++z)
    put((s.loaded_begin + z / margins) * t.pitch + dw::bulk_margin_column(t, z % margins), kZero);
  for (std::int64_t z = 0; z < (s.window_rows(t.kernel) - loaded) * t.pitch; ++z) {
    const std::int64_t k = z / t.pitch;
    const std::int64_t row = k < s.loaded_begin ? k : s.loaded_end + (k - s.loaded_begin);
    put(row * t.pitch + z % t.pitch, kZero);
  }
  CHECK(twice == 0);
  CHECK(outside == 0);
  return window;
}

// Checks the whole tiling of p with `stages` buffer sets (one plane; alignment also for the planes after it).
void check_tiling(const ConvProblem& p, std::int64_t stages) {
  const dw::BulkParamsFit fit = tiling_for(p, stages, 3);
  REQUIRE(fit.support.ok);
  const dw::BulkParams& t = fit.tiling;
  const std::int64_t oh_n = p.output_extent(0), ow_n = p.output_extent(1), k = p.kernel[0];
  const std::int64_t align = dw::bulk_row_alignment(ow_n);
  CHECK(t.strip_rows % align == 0);
  CHECK(t.strips * t.strip_rows >= oh_n);
  CHECK((t.strips - 1) * t.strip_rows < oh_n);
  CHECK(t.stages == stages);
  CHECK(t.stage_bytes() <= dw::kBulkStageMax);
  CHECK((t.stage_bytes() <= dw::kBulkStageTarget || t.strip_rows == align));
  CHECK(t.smem_bytes() <= 227 * 1024);  // a block's most
  // The stages' windows and staging areas: 16-byte aligned, one after the other, within the block's.
  std::int64_t end = dw::kBulkHeaderBytes;
  for (std::int64_t stage = 0; stage < stages; ++stage) {
    CHECK(t.window_offset_bytes(stage) == end);
    CHECK(t.window_offset_bytes(stage) % 16 == 0);
    CHECK(t.staging_offset_bytes(stage) == end + t.window_bytes());
    CHECK(t.staging_offset_bytes(stage) % 16 == 0);
    end = t.staging_offset_bytes(stage) + t.strip_rows * ow_n * 4;
  }
  CHECK(end == t.smem_bytes());
  CHECK(t.segments * t.segment_rows >= t.strip_rows);
  std::vector<int> computed(static_cast<std::size_t>(oh_n * ow_n), 0), stored(computed.size(), 0);
  std::int64_t wrong_taps = 0;  // counted, not CHECKed one by one: millions of taps
  for (std::int64_t strip = 0; strip < t.strips; ++strip) {
    const dw::BulkStrip s = dw::bulk_strip(t, strip);
    REQUIRE(s.plane == 0);
    const std::vector<std::int64_t> window = build_window(t, s);
    CHECK(std::count(window.begin(), window.begin() + s.window_rows(k) * t.pitch, kUnset) == 0);
    // The strip's one bulk store, for every plane: aligned, a multiple of 16 bytes, its own rows.
    for (std::int64_t plane = 0; plane < 3; ++plane) CHECK((plane * oh_n + s.row_begin) * ow_n * 4 % 16 == 0);
    CHECK(s.rows * ow_n * 4 % 16 == 0);
    for (std::int64_t i = s.row_begin * ow_n; i < (s.row_begin + s.rows) * ow_n; ++i)
      ++stored[static_cast<std::size_t>(i)];
    for (std::int64_t item = 0; item < t.items(); ++item) {
      const dw::BulkItem it = dw::bulk_item(t, s, item);
      for (std::int64_t row = it.row_begin; row < it.row_end; ++row) {
        const std::int64_t oh = s.row_begin + row;
        ++computed[static_cast<std::size_t>(oh * ow_n + it.column)];
        for (int kh = 0; kh < k; ++kh)
          for (int kw = 0; kw < k; ++kw) {
            const std::int64_t col = dw::bulk_window_column(t, it.column, kw);
            if (col < 0 || col >= t.pitch) {
              ++wrong_taps;
              continue;
            }
            const std::int64_t ih = geometry::conv_input_coord(p, 0, oh, kh);
            const std::int64_t iw = geometry::conv_input_coord(p, 1, it.column, kw);
            const bool inside = ih >= 0 && ih < p.input[0] && iw >= 0 && iw < p.input[1];
            const std::int64_t held = window[static_cast<std::size_t>((row + kh) * t.pitch + col)];
            wrong_taps += held != (inside ? ih * p.input[1] + iw : kZero) ? 1 : 0;
          }
      }
    }
  }
  CHECK(wrong_taps == 0);
  CHECK(std::count(computed.begin(), computed.end(), 1) == static_cast<std::ptrdiff_t>(computed.size()));
  CHECK(std::count(stored.begin(), stored.end(), 1) == static_cast<std::ptrdiff_t>(stored.size()));
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("bulk depthwise tiling: every tap reads its input or a zero, every output computed and stored once") {
    std::mt19937_64 rng(kbench::testing::test_seed(8403));
    int shared_columns = 0, margins = 0;
    for (int trial = 0; trial < 60; ++trial) {
      const ConvProblem p = random_bulk(rng);
      CAPTURE(trial);
      check_tiling(p, 1);
      check_tiling(p, 2);
      const dw::BulkParams t = tiling_for(p).tiling;
      shared_columns += t.segments > 1 ? 1 : 0;
      margins += t.pitch > t.in_w ? 1 : 0;
    }
    CHECK(shared_columns > 0);
    CHECK(margins > 0);
    // Rows too wide for four blocks an SM: 3,000 floats take strips of the smallest aligned height (2).
    const ConvProblem wide = depthwise(3, Dims{{12, 3000, 1}}, Dims{{1, 0, 0}}, Dims{{1, 0, 0}});
    check_tiling(wide, 1);
    check_tiling(wide, 2);
    CHECK(tiling_for(wide).tiling.stage_bytes() > dw::kBulkStageTarget);
  }

  TEST_CASE("bulk depthwise tiling: problem 84, and what it refuses") {
    const dw::BulkParamsFit s84 = dw::make_bulk_params(dw::make_plane_params(64, 128, 256, 512, 254, 510, 0, 0, 3));
    REQUIRE(s84.support.ok);
    const dw::BulkParams& t = s84.tiling;
    CHECK(t.strip_rows == 12);  // the tallest even strip within 55 KB: 14 x 2 KB in, 12 x 2,040 B out
    CHECK(t.strips == 22);
    CHECK(t.pitch == 512);  // no padding: no margins
    CHECK(t.smem_bytes() == 16 + 14 * 512 * 4 + 12 * 510 * 4);
    CHECK(t.segments == 1);
    CHECK(t.total_strips() == 64 * 128 * 22);
    // Pipelined: the same strips, two stages (two blocks an SM).
    const dw::BulkParamsFit piped = dw::make_bulk_params(dw::make_plane_params(64, 128, 256, 512, 254, 510, 0, 0, 3), 2);
    REQUIRE(piped.support.ok);
    CHECK(piped.tiling.strip_rows == 12);
    CHECK(piped.tiling.smem_bytes() == 16 + 2 * (14 * 512 * 4 + 12 * 510 * 4));
    CHECK(2 * (piped.tiling.smem_bytes() + 1024) <= 228 * 1024);
    // 16-byte bulk copies need rows and planes of multiples of 4 floats: rows of 510 in; 7 x 510 out.
    CHECK_FALSE(dw::make_bulk_params(dw::make_plane_params(1, 1, 10, 510, 8, 508, 0, 0, 3)).support.ok);
    CHECK_FALSE(dw::make_bulk_params(dw::make_plane_params(1, 1, 9, 512, 7, 510, 0, 0, 3)).support.ok);
    // A strip of two 7x7 rows of 8,192 floats needs more than two blocks' worth of shared memory.
    CHECK_FALSE(dw::make_bulk_params(dw::make_plane_params(1, 1, 16, 8192, 10, 8186, 0, 0, 7)).support.ok);
  }

}  // TEST_SUITE
}  // namespace kbench
