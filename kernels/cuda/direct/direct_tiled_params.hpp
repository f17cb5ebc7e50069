#pragma once
// The shared-memory direct convolution's params (DirectTiledParams: tile, windows, passes) and
// how a problem gets one (make_params), or why it has none. The kernel's design is described in
// direct_tiled_index.hpp; the index arithmetic over a DirectTiledParams lives there too.
#include <cstdint>
#include <string>

#include "core/host_device.hpp"
#include "core/support.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv::direct_tiled {

inline constexpr int kThreads = 256;
inline constexpr int kWarps = kThreads / 32;
// A block's shared memory stays within the default 48 KB (no opt-in attribute needed), which also
// leaves room for several blocks per SM to overlap one's copy with another's arithmetic.
inline constexpr std::int64_t kMaxSmemBytes = 48 * 1024;
// Up to 16 outputs a thread: a 64 x 64 tile of a 3x3 copies a 17 KB window, so that the four blocks an
// SM holds (64 registers a thread) keep about the 26 KB in flight that 4.3 TB/s over ~0.8 us of
// latency asks of each of 132 SMs while some of them compute; its halo rows add 3%, not 6% as at 8.
inline constexpr int kMaxOutputsPerThread = 16;
// Stacks in passes: up to 7 output channels per group (at 8 a GEMM starts paying,
// selection.hpp); passes of at least 8 items where a tile allows it (fewer passes, fewer
// barriers), else of any.
inline constexpr std::int64_t kMaxChunkedMultiplier = 7;
inline constexpr int kPreferredChunk = 8;
// A stack in passes may be long; it, the taps and the group's weights are counted in int (stack(),
// weight_floats(), weight_source), so each stays below 2^30.
inline constexpr std::int64_t kMaxExtentForCounts = std::int64_t{1} << 30;

struct DirectTiledParams {
  std::int64_t groups = 1;
  std::int64_t cin_per_group = 1;  // k: input channels a group reduces over
  std::int64_t multiplier = 1;     // m: output channels per group
  std::int64_t images_groups = 1;  // batch * groups: ng = n * groups + g
  std::int64_t in_d = 1, in_h = 1, in_w = 1, out_d = 1, out_h = 1, out_w = 1;
  int kernel_d = 1, kernel_h = 1, kernel_w = 1;
  std::int64_t stride_d = 1, dilation_d = 1;  // taken by the blocks' input-plane arithmetic only
  int stride_h = 1, stride_w = 1;             // forward, within a window: bounded by its 48 KB
  int dilation_h = 1, dilation_w = 1;
  std::int64_t pad_front = 0, pad_top = 0, pad_left = 0;
  bool transposed = false;
  DType dtype = DType::fp32;  // of every tensor; windows, weights and sums are fp32 in shared memory
  PhaseDim phase_h, phase_w;  // transposed: the rows' and columns' phases (phase_index.hpp)
  int threads_w = 64;         // threads across a row (a multiple of 32 dividing kThreads)
  int per_thread = 1;         // P: outputs of a thread per output channel
  bool along_rows = true;     // a thread's outputs are every threads_h-th row, or every threads_w-th column (one row)
  std::int64_t tiles_h = 1, tiles_w = 1;
  int window_rows = 1, window_cols = 1;  // one stack item's input window (row pitch window_cols)
  int chunk = 1;                         // stack items a pass copies and adds (the whole stack: one pass)

  KBENCH_HD int threads_h() const { return kThreads / threads_w; }
  KBENCH_HD int tile_rows() const { return threads_h() * (along_rows ? per_thread : 1); }
  KBENCH_HD int tile_cols() const { return threads_w * (along_rows ? 1 : per_thread); }
  KBENCH_HD int taps2d() const { return kernel_h * kernel_w; }
  // Stack items: input channels of the group x depth taps, each one window and taps2d weights.
  KBENCH_HD int stack() const { return static_cast<int>(cin_per_group) * kernel_d; }
  KBENCH_HD std::int64_t blocks() const { return images_groups * out_d * tiles_h * tiles_w; }
  KBENCH_HD int window_floats() const { return window_rows * window_cols; }
  // Weights [C_out, k, KD, KH, KW]: an output channel's are stack() x taps2d() consecutive floats,
  // a group's weight_floats() (transposed, [C_in, C_out/g, ...]: as many, in another order).
  KBENCH_HD int weights_per_output() const { return stack() * taps2d(); }
  KBENCH_HD int weight_floats() const { return static_cast<int>(multiplier) * weights_per_output(); }
  // Passes over the stack, and the items of pass `pass` (stack items pass * chunk onwards).
  KBENCH_HD int passes() const { return (stack() + chunk - 1) / chunk; }
  KBENCH_HD int pass_items(int pass) const {
    const int left = stack() - pass * chunk;
    return left < chunk ? left : chunk;
  }
  // Shared memory: a pass's windows, its weights (per output channel: chunk x taps2d floats), and
  // with several passes the partial sums (m x P floats per thread, thread-minor).
  KBENCH_HD int chunk_floats() const { return chunk * window_floats(); }
  KBENCH_HD int tile_weights_per_output() const { return chunk * taps2d(); }
  KBENCH_HD int tile_weight_floats() const { return static_cast<int>(multiplier) * tile_weights_per_output(); }
  KBENCH_HD int partial_floats() const {
    return passes() > 1 ? static_cast<int>(multiplier) * per_thread * kThreads : 0;
  }
  // Warp-sized segments of a window's rows: the unit of the copy (one coalesced load per warp).
  KBENCH_HD int segments_per_row() const { return (window_cols + 31) / 32; }
  KBENCH_HD int segments_per_window() const { return window_rows * segments_per_row(); }
  std::int64_t smem_bytes() const {
    return static_cast<std::int64_t>(chunk_floats() + tile_weight_floats() + partial_floats()) *
           static_cast<std::int64_t>(sizeof(float));
  }
};

// Input rows (or columns) a tile of `outputs` outputs reads: from its first output's first tap to
// its last output's last tap.
inline std::int64_t window_extent(std::int64_t outputs, std::int64_t stride, std::int64_t kernel,
                                  std::int64_t dilation) {
  return (outputs - 1) * stride + (kernel - 1) * dilation + 1;
}

// Transposed, wherever the tile starts: its outputs o0 .. o0 + outputs - 1 read inputs
// floor((o0 + pad - (kernel - 1) * dil) / s) .. floor((o0 + outputs - 1 + pad) / s), a span of
// L = outputs - 1 + (kernel - 1) * dil divided by s: at most ceil(L / s) + 1 inputs.
inline std::int64_t transposed_window_extent(std::int64_t outputs, std::int64_t stride, std::int64_t kernel,
                                             std::int64_t dilation) {
  return geometry::ceil_div(outputs - 1 + (kernel - 1) * dilation, stride) + 1;
}

inline constexpr std::int64_t kFloatsPerBlock = kMaxSmemBytes / std::int64_t{sizeof(float)};

// Whether `stack` windows of rows x cols and multiplier x stack x taps weights fit in kMaxSmemBytes
// (each factor tested first: with dilations up to 2^30 their products could overflow).
inline bool floats_fit(std::int64_t stack, std::int64_t rows, std::int64_t cols, std::int64_t multiplier,
                       std::int64_t taps) {
  constexpr std::int64_t kFloats = kFloatsPerBlock;
  if (stack > kFloats || rows > kFloats || cols > kFloats || multiplier > kFloats || taps > kFloats) return false;
  const std::int64_t window = rows * cols, weights = stack * taps;
  return window <= kFloats && weights <= kFloats && stack * window + multiplier * weights <= kFloats;
}

// How many stack items a pass can hold beside the partial sums of `per` outputs a thread for
// `multiplier` channels: each item a rows x cols window and multiplier x taps weights (0: none).
inline std::int64_t chunk_fitting(std::int64_t rows, std::int64_t cols, std::int64_t multiplier, std::int64_t taps,
                                  int per) {
  constexpr std::int64_t kFloats = kFloatsPerBlock;
  if (rows > kFloats || cols > kFloats || multiplier > kFloats || taps > kFloats) return 0;
  const std::int64_t item = rows * cols + multiplier * taps, partial = multiplier * per * kThreads;
  return item > kFloats || partial >= kFloats ? 0 : (kFloats - partial) / item;
}

// The tiling of problem `p`, or why it has none within kMaxSmemBytes.
struct ParamsFit {
  DirectTiledParams desc;
  Support support;
};

inline ParamsFit make_params(const ConvProblem& p) {
  ParamsFit tiling;
  DirectTiledParams& d = tiling.desc;
  const ConvProblem p3 = as_rank3(p);  // D, H, W
  d.groups = p3.groups;
  d.cin_per_group = p3.in_channels_per_group();
  d.multiplier = p3.out_channels_per_group();
  d.images_groups = p3.batch * p3.groups;
  d.in_d = p3.input[0];
  d.in_h = p3.input[1];
  d.in_w = p3.input[2];
  d.out_d = p3.output_extent(0);
  d.out_h = p3.output_extent(1);
  d.out_w = p3.output_extent(2);
  d.pad_front = p3.pad_before[0];
  d.pad_top = p3.pad_before[1];
  d.pad_left = p3.pad_before[2];
  d.transposed = p3.transposed();
  d.dtype = p3.dtype;
  if (d.transposed) {
    d.phase_h = make_phase_dim(p3, 1);
    d.phase_w = make_phase_dim(p3, 2);
  }
  const std::int64_t kh = p3.kernel[1], sh = p3.stride[1], dh = p3.dilation[1];
  const std::int64_t kw = p3.kernel[2], sw = p3.stride[2], dw = p3.dilation[2];
  const std::int64_t stack = d.cin_per_group * p3.kernel[0];
  const bool one_row = d.out_h == 1;

  // Candidates, most preferred first: several rows, 64 threads across (32 for narrow outputs) and
  // as many rows per thread (up to 16) as the output has; one row, 256 threads across and up to 16
  // columns each. Fewer outputs per thread, then 32 threads across, when the windows do not fit.
  // Transposed, a thread's outputs keep one phase only if the threads they lie apart are a multiple
  // of the stride; otherwise each thread computes one.
  const auto pow2_covering = [](std::int64_t need, int most) {
    int n = 1;
    while (n < most && n < need) n *= 2;
    return n;
  };
  const auto extent = d.transposed ? transposed_window_extent : window_extent;
  // The candidates of `threads_w` threads across, most outputs a thread first, until `take(per,
  // rows, cols)` accepts one (its window rows x cols); that one is recorded.
  const auto first_tile = [&](int threads_w, const auto& take) {
    const int threads_h = kThreads / threads_w;
    const std::int64_t need = one_row ? geometry::ceil_div(d.out_w, threads_w) : geometry::ceil_div(d.out_h, threads_h);
    const bool phase_kept = !d.transposed || (one_row ? threads_w % sw == 0 : threads_h % sh == 0);
    for (int per = phase_kept ? pow2_covering(need, kMaxOutputsPerThread) : 1; per >= 1; per /= 2) {
      // One output row: only the first row of threads has outputs, and its window one row of them.
      const std::int64_t rows = extent(one_row ? 1 : std::int64_t{threads_h} * per, sh, kh, dh);
      const std::int64_t cols = extent(std::int64_t{threads_w} * (one_row ? per : 1), sw, kw, dw);
      if (take(per, rows, cols)) {
        d.threads_w = threads_w;
        d.per_thread = per;
        d.along_rows = !one_row;
        d.window_rows = static_cast<int>(rows);
        d.window_cols = static_cast<int>(cols);
        return true;
      }
    }
    return false;
  };
  const int preferred = one_row ? kThreads : (d.out_w <= 32 ? 32 : 64);
  const auto any_width = [&](const auto& take) {
    return first_tile(preferred, take) || (preferred != 32 && first_tile(32, take));
  };
  const auto whole_stack = [&](int, std::int64_t rows, std::int64_t cols) {
    if (!floats_fit(stack, rows, cols, d.multiplier, kh * kw)) return false;
    d.chunk = static_cast<int>(stack);  // below kFloatsPerBlock (floats_fit)
    return true;
  };
  // Failing that, passes over the stack (few output channels per group only): the first tile whose
  // passes hold at least kPreferredChunk items (or the whole stack); else the first whose passes
  // hold any.
  const auto passes_of = [&](std::int64_t least) {
    return [&, least](int per, std::int64_t rows, std::int64_t cols) {
      const std::int64_t chunk = chunk_fitting(rows, cols, d.multiplier, kh * kw, per);
      if (chunk < least) return false;
      d.chunk = static_cast<int>(chunk < stack ? chunk : stack);
      return true;
    };
  };
  // The group's weights are counted in int (weight_floats, weight_source): below 2^31.
  const bool countable = stack < kMaxExtentForCounts && kh * kw < kMaxExtentForCounts &&
                         d.multiplier * stack * kh * kw < kMaxExtentForCounts;
  const bool in_passes_allowed = d.multiplier <= kMaxChunkedMultiplier && countable;
  const std::int64_t least = stack < kPreferredChunk ? stack : kPreferredChunk;
  if (!any_width(whole_stack) && !(in_passes_allowed && (any_width(passes_of(least)) || any_width(passes_of(1))))) {
    tiling.support = Support::no(
        "direct_tiled: the input windows of the smallest tile and the group's weights exceed 48 KB of shared memory "
        "(8 or more output channels per group with many input channels or depth taps, or a stride or dilation too "
        "large)");
    return tiling;
  }
  // Everything a window holds fits in 48 KB, so its extents, steps and counts are far from 2^31
  // (a single output row never steps by its row stride, which the windows therefore do not bound).
  d.kernel_d = static_cast<int>(p3.kernel[0]);
  d.kernel_h = static_cast<int>(kh);
  d.kernel_w = static_cast<int>(kw);
  d.stride_h = static_cast<int>(one_row ? 1 : sh);
  d.stride_w = static_cast<int>(sw);
  d.dilation_h = static_cast<int>(kh > 1 ? dh : 1);  // one tap: its dilation never multiplies anything
  d.dilation_w = static_cast<int>(kw > 1 ? dw : 1);
  d.stride_d = p3.stride[0];
  d.dilation_d = p3.dilation[0];
  d.tiles_h = geometry::ceil_div(d.out_h, d.tile_rows());
  d.tiles_w = geometry::ceil_div(d.out_w, d.tile_cols());
  if (d.blocks() > 0x7fffffff) tiling.support = Support::no("direct_tiled: too many blocks for one launch");
  return tiling;
}

}  // namespace kbench::gpu::conv::direct_tiled
