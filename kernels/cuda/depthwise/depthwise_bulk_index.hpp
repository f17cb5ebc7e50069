#pragma once
// Tiling of the bulk-copy depthwise 2-D kernel (`depthwise2d/bulk_copies`, `/bulk_pipelined`),
// shared with the CPU tests.
//
// Why a third problem-84 kernel: the register kernel's output rows of 510 floats are only 8-byte
// aligned, so every 32-byte sector of the output is written in two halves (twice the L2 write
// requests), and its loads need many registers in flight. Here a block of 256 threads owns a strip
// of R whole output rows of one (n, c) plane. Its input window (R + K - 1 rows) arrives by Hopper
// bulk copies, one per row, into shared memory rows of `pitch` floats whose zero margins hold the
// left and right padding; rows in the top or bottom padding are zeroed. The threads compute the
// strip into a shared staging area laid out exactly as the output rows, and one bulk copy writes
// the strip's R x out_w contiguous floats: whole sectors, no partial writes, a few instructions.
//
// Two schedules (`stages`): one strip a block (`bulk_copies`: every strip its own block, four blocks
// an SM overlapping one another's copies and arithmetic), or persistent blocks that walk strips
// blockIdx.x, + gridDim.x, ... with two sets of buffers (`bulk_pipelined`: the next strip's rows
// land while this one is computed, and its copy out drains while the next is).
//
// A thread owns one output column over a run of rows (a "segment"): lanes take consecutive
// columns, so every shared load and store of a warp is free of bank conflicts at any padding. Its
// K x K window slides down the rows in registers (K new loads per output row).
//
// Alignment, which the bulk copies need (16 bytes): input rows of a multiple of 4 floats; output
// planes of a multiple of 4 floats; strips of R rows with R x out_w a multiple of 4.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/host_device.hpp"
#include "core/support.hpp"
#include "cuda/depthwise/depthwise_params.hpp"
#include "problem/conv_geometry.hpp"

namespace kbench::gpu::conv::depthwise {

inline constexpr int kBulkThreads = 256;
inline constexpr std::int64_t kBulkMaxStripRows = 32;
inline constexpr int kBulkMaxStages = 2;
// Shared memory per stage (a window and a staging area): up to 55 KB keeps four one-stage blocks
// on an SM (227 KB, 1 KB reserved per block), or two two-stage ones; wider rows may take up to
// 113 KB a stage (two one-stage blocks, or one two-stage block).
inline constexpr std::int64_t kBulkStageTarget = 55 * 1024;
inline constexpr std::int64_t kBulkStageMax = 113 * 1024;
// One mbarrier (8 bytes) per stage sits first, padded so that the buffers start 16-byte aligned.
inline constexpr std::int64_t kBulkHeaderBytes = 8 * kBulkMaxStages;
static_assert(kBulkHeaderBytes % 16 == 0);

struct BulkParams : PlaneParams {
  std::int64_t stages = 1;        // buffer sets: 1, one strip a block; 2, persistent and pipelined
  std::int64_t strip_rows = 1;    // R: output rows per strip
  std::int64_t strips = 1;        // per plane
  std::int64_t margin = 0;        // zero floats left of input column 0 in a window row (multiple of 4)
  std::int64_t pitch = 4;         // floats per window row (multiple of 4)
  std::int64_t segments = 1;      // row segments per column: threads sharing one column of a strip
  std::int64_t segment_rows = 1;  // output rows per segment (the last may be shorter)

  KBENCH_HD std::int64_t window_rows() const { return strip_rows + kernel - 1; }
  KBENCH_HD std::int64_t window_bytes() const { return window_rows() * pitch * 4; }
  KBENCH_HD std::int64_t stage_bytes() const { return window_bytes() + strip_rows * out_w * 4; }
  // Stage s: its window, then its staging area.
  KBENCH_HD std::int64_t window_offset_bytes(std::int64_t stage) const {
    return kBulkHeaderBytes + stage * stage_bytes();
  }
  KBENCH_HD std::int64_t staging_offset_bytes(std::int64_t stage) const {
    return window_offset_bytes(stage) + window_bytes();
  }
  KBENCH_HD std::int64_t smem_bytes() const { return kBulkHeaderBytes + stages * stage_bytes(); }
  // A one-stage launch has a block per strip.
  KBENCH_HD std::int64_t total_strips() const { return planes * strips; }
  // Work items of a block: (column, segment) pairs, column fastest.
  KBENCH_HD std::int64_t items() const { return out_w * segments; }
};

// A problem's bulk tiling, or why the problem does not fit one.
struct BulkParamsFit {
  BulkParams tiling;
  Support support;  // whether the problem fits
};

// Smallest strip height whose R x out_w floats are a multiple of 4 (16 bytes).
inline std::int64_t bulk_row_alignment(std::int64_t out_w) { return out_w % 4 == 0 ? 1 : (out_w % 2 == 0 ? 2 : 4); }

// The tiling for a problem in the depthwise2d envelope (stride 1, dilation 1, square kernel K), with
// `stages` buffer sets (1 or 2).
inline BulkParamsFit make_bulk_params(const PlaneParams& shape, std::int64_t stages = 1) {
  using geometry::ceil_div;
  BulkParamsFit fit;
  BulkParams& t = fit.tiling;
  static_cast<PlaneParams&>(t) = shape;
  t.stages = stages;
  const std::string name = stages == 2 ? "depthwise2d/bulk_pipelined" : "depthwise2d/bulk_copies";
  const std::int64_t in_w = t.in_w, out_h = t.out_h, out_w = t.out_w, pad_left = t.pad_left, kernel = t.kernel;
  if (in_w % 4 != 0) {
    fit.support = Support::no(name + ": input rows must be a multiple of 4 floats (16-byte bulk copies)");
    return fit;
  }
  if (out_h * out_w % 4 != 0) {
    fit.support = Support::no(name + ": output planes must be a multiple of 4 floats (16-byte bulk copies)");
    return fit;
  }
  // Window rows hold input column ic at margin + ic; output column c reads margin - pad_left + c + kw.
  t.margin = ceil_div(pad_left, 4) * 4;
  const std::int64_t reach = t.margin - pad_left + out_w + kernel - 1;  // one past the last column read
  t.pitch = ceil_div(reach > t.margin + in_w ? reach : t.margin + in_w, 4) * 4;
  // The tallest strip within the target (or, for wide rows, the shortest within the maximum), then
  // evened out so that the last strip of a plane is not a sliver.
  const std::int64_t align = bulk_row_alignment(out_w);
  const std::int64_t tallest = ceil_div(out_h < kBulkMaxStripRows ? out_h : kBulkMaxStripRows, align) * align;
  std::int64_t rows = 0;
  for (std::int64_t r = tallest; r >= align && rows == 0; r -= align) {
    t.strip_rows = r;
    if (t.stage_bytes() <= kBulkStageTarget) rows = r;
  }
  if (rows == 0) {
    t.strip_rows = align;
    if (t.stage_bytes() > kBulkStageMax) {
      fit.support = Support::no(name + ": rows too wide for a strip in shared memory");
      return fit;
    }
    rows = align;
  }
  t.strips = ceil_div(out_h, rows);
  t.strip_rows = ceil_div(ceil_div(out_h, t.strips), align) * align;
  // Threads left over by a narrow plane share its columns: each takes a run of rows.
  const std::int64_t per_column = kBulkThreads / out_w;
  t.segments = per_column < 1 ? 1 : (per_column > t.strip_rows ? t.strip_rows : per_column);
  t.segment_rows = ceil_div(t.strip_rows, t.segments);
  if (t.total_strips() > 0x7fffffff) fit.support = Support::no(name + ": too many strips for one launch");
  return fit;
}

// Strip `strip` (of total_strips): its plane, output rows [row_begin, row_begin + rows) and window.
struct BulkStrip {
  std::int64_t plane = 0;
  std::int64_t row_begin = 0;
  std::int64_t rows = 0;             // output rows (the last strip of a plane may have fewer than R)
  std::int64_t first_input_row = 0;  // input row of window row 0 (negative in the top padding)
  std::int64_t loaded_begin = 0;     // window rows [loaded_begin, loaded_end) lie in the input
  std::int64_t loaded_end = 0;
  KBENCH_HD std::int64_t window_rows(std::int64_t kernel) const { return rows + kernel - 1; }
};

// Consecutive blocks take consecutive strips of one plane, so strips sharing halo rows run together.
KBENCH_HD BulkStrip bulk_strip(const BulkParams& t, std::int64_t strip) {
  BulkStrip s;
  s.plane = strip / t.strips;
  s.row_begin = (strip % t.strips) * t.strip_rows;
  s.rows = t.out_h - s.row_begin < t.strip_rows ? t.out_h - s.row_begin : t.strip_rows;
  s.first_input_row = s.row_begin - t.pad_top;
  const std::int64_t window = s.window_rows(t.kernel);
  s.loaded_begin = s.first_input_row < 0 ? -s.first_input_row : 0;
  s.loaded_end = t.in_h - s.first_input_row < window ? t.in_h - s.first_input_row : window;
  if (s.loaded_end < s.loaded_begin) s.loaded_end = s.loaded_begin;
  return s;
}

// A work item: one output column of the strip over output rows [row_begin, row_end) (local to the strip).
struct BulkItem {
  std::int64_t column = 0;
  std::int64_t row_begin = 0, row_end = 0;
};

KBENCH_HD BulkItem bulk_item(const BulkParams& t, const BulkStrip& s, std::int64_t item) {
  BulkItem it;
  it.column = item % t.out_w;
  const std::int64_t segment = item / t.out_w;
  it.row_begin = segment * t.segment_rows;
  const std::int64_t end = it.row_begin + t.segment_rows;
  it.row_end = end < s.rows ? end : s.rows;
  if (it.row_end < it.row_begin) it.row_end = it.row_begin;
  return it;
}

// Where, in a window row, output column c's tap kw reads (input column c - pad_left + kw).
KBENCH_HD std::int64_t bulk_window_column(const BulkParams& t, std::int64_t column, int kw) {
  return t.margin - t.pad_left + column + kw;
}

// Zero spans of the window: the margins of every loaded row (pitch - in_w floats each), and whole
// rows in the top or bottom padding. Zero element z of a loaded row's margins lies at this column.
KBENCH_HD std::int64_t bulk_margin_column(const BulkParams& t, std::int64_t z) { return z < t.margin ? z : t.in_w + z; }

// Calls f(K, STAGES) as std::integral_constant values for the compiled instance (K 3, 5 or 7 x 1 or 2
// stages); the CUDA entry point and the CPU emulation tests dispatch through this one table.
template <class F>
void with_bulk_instance(const BulkParams& t, F&& f) {
  const auto with_stages = [&](auto k) {
    if (t.stages == 2) return f(k, std::integral_constant<int, 2>{});
    if (t.stages == 1) return f(k, std::integral_constant<int, 1>{});
    throw std::invalid_argument("depthwise2d bulk copies: 1 or 2 stages");
  };
  switch (t.kernel) {
    case 3: return with_stages(std::integral_constant<int, 3>{});
    case 5: return with_stages(std::integral_constant<int, 5>{});
    case 7: return with_stages(std::integral_constant<int, 7>{});
    default: break;
  }
  throw std::invalid_argument("depthwise2d bulk copies: kernel size outside the envelope");
}

}  // namespace kbench::gpu::conv::depthwise
