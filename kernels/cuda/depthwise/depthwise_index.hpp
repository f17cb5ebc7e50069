#pragma once
// Tiling of the depthwise 2-D kernel (problem 84), shared with the CPU tests.
//
// A block owns a strip of output rows of one (n, c) plane and a segment of 512 output columns; each of
// its 128 threads owns 4 consecutive output columns [col_base, col_base + 4) and loads the input
// float4 at the same columns. Output column ow with tap kw reads input column ow - pad_left + kw, so a
// thread needs window slots s = j + kw (j < 4, kw < K), input column col_base - pad_left + s: K + 3
// slots spanning its own float4 and those of lanes nearby ("neighbour" nb = floor((s - pad_left) / 4)).
// Neighbours come by warp shuffle; at a warp's edge (lane + nb outside the warp) the lane loads
// that float4 itself. Rows slide through registers: each input row is loaded once per strip.
//
// Envelope: stride 1, dilation 1, square kernel K in {3, 5, 7}, pad_left in {0, (K-1)/2},
// pad_top <= K-1, input width a multiple of 4 (16-byte aligned rows).
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "core/host_device.hpp"
#include "cuda/depthwise/depthwise_params.hpp"
#include "cuda/common/variant_knobs.hpp"
#include "cuda/transposed/phase_index.hpp"

namespace kbench::gpu::conv::depthwise {

inline constexpr int kThreads = 128;
inline constexpr int kColsPerThread = 4;
inline constexpr int kSegmentCols = kThreads * kColsPerThread;  // 512
inline constexpr int kStripRows = 32;

// Lowest and highest neighbour a window slot can need (compile-time in the kernel).
KBENCH_HD constexpr int lowest_neighbour(int pad_left) { return pad_left == 0 ? 0 : -((pad_left + 3) / 4); }
KBENCH_HD constexpr int highest_neighbour(int kernel, int pad_left) { return (kernel + 2 - pad_left) / 4; }

// How output rows reach memory (StoreMode, store_mode_name): cuda/common/variant_knobs.hpp.

struct Params : PlaneParams {
  std::int64_t segments = 1;  // column segments per row
  std::int64_t strips = 1;    // row strips per plane
  StoreMode stores = StoreMode::split;
  std::int64_t blocks() const { return planes * strips * segments; }
};

inline Params make_params(const PlaneParams& shape) {
  Params t;
  static_cast<PlaneParams&>(t) = shape;
  t.segments = ceil_div(t.out_w, kSegmentCols);
  t.strips = ceil_div(t.out_h, kStripRows);
  return t;
}

// Consecutive blocks walk the segments, then the strips of one plane, so strips sharing halo rows run together.
struct BlockTile {
  std::int64_t plane = 0;
  std::int64_t row_begin = 0, row_end = 0;  // output rows
  std::int64_t col_begin = 0;               // first output column of the segment
};

KBENCH_HD BlockTile block_tile(const Params& t, std::int64_t block) {
  BlockTile b;
  const std::int64_t segment = block % t.segments;
  const std::int64_t strip = (block / t.segments) % t.strips;
  b.plane = block / (t.segments * t.strips);
  b.row_begin = strip * kStripRows;
  b.row_end = b.row_begin + kStripRows < t.out_h ? b.row_begin + kStripRows : t.out_h;
  b.col_begin = segment * kSegmentCols;
  return b;
}

KBENCH_HD std::int64_t thread_col_base(const BlockTile& b, int thread) { return b.col_begin + kColsPerThread * thread; }

// Where window slot s of a thread comes from: the float4 of lane + neighbour, component `component`.
struct SlotSource {
  int neighbour = 0;
  int component = 0;
};

KBENCH_HD constexpr SlotSource slot_source(int pad_left, int slot) {
  const int e = slot - pad_left;
  const int nb = e >= 0 ? e / 4 : -((-e + 3) / 4);
  return SlotSource{nb, e - 4 * nb};
}

// Input column of window slot s.
KBENCH_HD std::int64_t slot_column(const Params& t, std::int64_t col_base, int slot) {
  return col_base - t.pad_left + slot;
}

// Input row read through tap kh by output row oh (may lie in the padding).
KBENCH_HD std::int64_t input_row(const Params& t, std::int64_t oh, int kh) { return oh - t.pad_top + kh; }

// Widest store whose alignment every (row, col_base) of this output width guarantees: 4, 2 or 1 floats.
KBENCH_HD int store_width(std::int64_t out_w) { return out_w % 4 == 0 ? 4 : (out_w % 2 == 0 ? 2 : 1); }

// Rows of an even width that is not a multiple of 4 (problem 84: 510) start 16-byte aligned and 8
// bytes past it, alternately. Two 8-byte stores per lane would write every 32-byte sector in two
// halves, doubling the output's L2 write requests (problem 84: 266 M instead of 133 M, beside 134 M
// reads). So a lane stores 16 bytes where the row's alignment allows: an aligned row, its own four
// outputs; a shifted row, its last two with the next lane's first two (shuffled), at col_base + 2,
// a 16-byte boundary there. The warp's first lane then stores its first two alone (8 bytes), and a
// lane whose next lane is in another warp or past the row stores its last two alone.
struct RowStores {
  bool own4 = false;   // outputs 0..3 as 16 bytes at col_base (aligned row)
  bool head2 = false;  // outputs 0, 1 as 8 bytes at col_base
  bool next4 = false;  // outputs 2, 3 and the next lane's 0, 1 as 16 bytes at col_base + 2 (shifted row)
  bool tail2 = false;  // outputs 2, 3 as 8 bytes at col_base + 2
};

// The stores of a lane (columns col_base .. col_base + 3) in a row of even width out_w whose first
// element is 8 bytes past a 16-byte boundary when `shifted`.
KBENCH_HD RowStores even_row_stores(bool shifted, int lane, std::int64_t col_base, std::int64_t out_w) {
  RowStores s;
  if (col_base >= out_w) return s;  // out_w even: col_base + 1 < out_w from here on
  if (!shifted) {
    s.own4 = col_base + 3 < out_w;
    s.head2 = !s.own4;
    return s;
  }
  s.head2 = lane == 0;
  s.next4 = lane < 31 && col_base + 5 < out_w;
  s.tail2 = !s.next4 && col_base + 3 < out_w;
  return s;
}

// Calls f(K, PAD_LEFT, STORES), as std::integral_constant values, for the compiled instance that runs
// `t`: six (K in {3, 5, 7} x left padding {0, (K-1)/2}) x two store modes. The CUDA entry point and the
// CPU emulation tests dispatch through this one table. `t` must lie in the depthwise2d envelope.
template <class F>
void with_depthwise_instance(const Params& t, F&& f) {
  if (is_bulk(t.stores)) throw std::invalid_argument("depthwise2d: bulk copies run their own kernel and tiling");
  const auto with_stores = [&](auto k, auto pad) {
    if (t.stores == StoreMode::realigned) return f(k, pad, std::integral_constant<StoreMode, StoreMode::realigned>{});
    return f(k, pad, std::integral_constant<StoreMode, StoreMode::split>{});
  };
  const auto instance = [&](auto k, auto centred_pad) {
    if (t.pad_left != 0) return with_stores(k, centred_pad);
    return with_stores(k, std::integral_constant<int, 0>{});
  };
  switch (t.kernel) {
    case 3: return instance(std::integral_constant<int, 3>{}, std::integral_constant<int, 1>{});
    case 5: return instance(std::integral_constant<int, 5>{}, std::integral_constant<int, 2>{});
    case 7: return instance(std::integral_constant<int, 7>{}, std::integral_constant<int, 3>{});
    default: break;
  }
  throw std::invalid_argument("depthwise2d: kernel size outside the envelope");
}

// Whether row `row` of `plane` starts 8 bytes past a 16-byte boundary (its first element's index is 2 mod 4).
KBENCH_HD bool row_shifted(const Params& t, std::int64_t plane, std::int64_t row) {
  return (plane * t.out_h + row) * t.out_w % 4 == 2;
}

}  // namespace kbench::gpu::conv::depthwise
