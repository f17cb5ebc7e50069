#pragma once
// Tiling of the shared-memory direct convolution (direct_tiled_kernel.cuh), shared with the CPU tests.
//
// For the convolutions a GEMM does not pay for: few output channels per group, or a short
// reduction (depthwise and its depth-multiplier forms, ResNeXt-style groups of a few channels),
// forward or transposed. Without this kernel they run on `direct`, one thread per output re-reading
// every input element from L1 or L2 once per tap; the register depthwise kernel (depthwise2d) takes
// only stride 1, dilation 1 and square 3/5/7 kernels on 16-byte rows, and the phase GEMMs of a
// transposed convolution need 8 output channels per group. This one takes any rank, stride,
// dilation, padding and kernel shape, as long as its windows fit in shared memory.
//
// The problem is taken as rank 3 (reference::as_rank3: D, H, W). A block of 256 threads owns a tile
// of output rows x columns of one output depth plane od of one (image n, group g), for all m output
// channels of the group. It copies into shared memory the input windows the tile reads, one per
// "stack item" s = c * KD + kd (input channel c of the group, depth tap kd; the window is zeros
// where its input depth lies in the padding or, transposed, where tap kd lands on no input there),
// and the group's m x (C_in/g x KD x KH x KW) weights; then each thread computes P outputs for each
// of the m channels, summing every stack item's 2-D taps. The threads are threads_h x threads_w with
// threads_w a multiple of 32: a warp covers 32 consecutive columns of one row, so both the copy
// (one row segment per warp instruction) and the stores coalesce. A thread's P outputs lie along
// one axis, threads_h rows (or, where the output has one row, threads_w columns) apart, so its loop
// only steps two pointers (thread_origin, thread_output).
//
// Transposed (output o = i * s - pad + k * dil along each dimension), a thread gathers: output o
// reads input i = (o + pad - k * dil) / s through the taps k of its phase (o + pad) mod s
// (phase_index.hpp), an arithmetic progression of kernel taps whose inputs step back by dil / g
// (thread_taps). The P outputs of a thread share their phase (threads_h, or threads_w, is a
// multiple of the stride whenever P > 1), so its taps are fixed and its loop again steps two pointers.
//
// Stacks too deep for 48 KB (many input channels, few output channels: a regression head's 64 -> 1,
// DCGAN's last layer 64 -> 3) come in passes of `chunk` items: the block copies a pass's windows and
// weights, adds them into partial sums it keeps in shared memory (m x P per thread), and stores
// after the last pass. Only up to kMaxChunkedMultiplier output channels per group: beyond, the
// GEMMs serve the problem.
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/host_device.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"
#include "reference/rank3.hpp"

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
// kernel_selection.hpp); passes of at least 8 items where a tile allows it (fewer passes, fewer
// barriers), else of any.
inline constexpr std::int64_t kMaxChunkedMultiplier = 7;
inline constexpr int kPreferredChunk = 8;
// A stack in passes may be long; it, the taps and the group's weights are counted in int (stack(),
// weight_floats(), weight_source), so each stays below 2^30.
inline constexpr std::int64_t kMaxExtentForCounts = std::int64_t{1} << 30;

struct TiledDesc {
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
  PhaseDim phase_h, phase_w;  // transposed: the rows' and columns' phases (phase_index.hpp)
  int threads_w = 64;       // threads across a row (a multiple of 32 dividing kThreads)
  int per_thread = 1;       // P: outputs of a thread per output channel
  bool along_rows = true;   // a thread's outputs are every threads_h-th row, or every threads_w-th column (one row)
  std::int64_t tiles_h = 1, tiles_w = 1;
  int window_rows = 1, window_cols = 1;  // one stack item's input window (row pitch window_cols)
  int chunk = 1;  // stack items a pass copies and adds (the whole stack: one pass)

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
inline std::int64_t window_extent(std::int64_t outputs, std::int64_t stride, std::int64_t kernel, std::int64_t dilation) {
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
struct TiledPlan {
  TiledDesc desc;
  std::string why_not;
};

inline TiledPlan make_tiled_plan(const ConvProblem& p) {
  TiledPlan plan;
  TiledDesc& d = plan.desc;
  const ConvProblem p3 = reference::as_rank3(p);  // D, H, W
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
      const std::int64_t rows = extent(std::int64_t{threads_h} * (one_row ? 1 : per), sh, kh, dh);
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
  if (!any_width(whole_stack) &&
      !(in_passes_allowed && (any_width(passes_of(least)) || any_width(passes_of(1))))) {
    plan.why_not = "direct_tiled: the input windows of the smallest tile and the group's weights exceed 48 KB of "
                   "shared memory (8 or more output channels per group with many input channels or depth taps, or "
                   "a stride or dilation too large)";
    return plan;
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
  if (d.blocks() > 0x7fffffff) plan.why_not = "direct_tiled: too many blocks for one launch";
  return plan;
}

// A block's tile: its (image, group), output depth plane and first output row and column; the
// windows' top-left input coordinates (negative in the padding).
struct BlockTile {
  std::int64_t image_group = 0;  // n * groups + g
  std::int64_t od = 0;
  std::int64_t row0 = 0, col0 = 0;  // output
  std::int64_t in_row0 = 0, in_col0 = 0;
};

// Consecutive blocks walk a plane's tile columns, then its tile rows, then the output depth planes,
// so tiles sharing halo rows (and depth neighbours sharing input planes) run together.
KBENCH_HD BlockTile block_tile(const TiledDesc& d, std::int64_t block) {
  BlockTile b;
  const std::int64_t tile_col = block % d.tiles_w;
  const std::int64_t tile_row = (block / d.tiles_w) % d.tiles_h;
  const std::int64_t plane = block / (d.tiles_w * d.tiles_h);  // (ng, od)
  b.od = plane % d.out_d;
  b.image_group = plane / d.out_d;
  b.row0 = tile_row * d.tile_rows();
  b.col0 = tile_col * d.tile_cols();
  if (d.transposed) {  // the lowest input any tap of the tile reads (transposed_window_extent)
    const PhaseDim& h = d.phase_h;
    const PhaseDim& w = d.phase_w;
    b.in_row0 = geometry::floor_div(b.row0 + h.pad_before - (h.kernel - 1) * h.dilation, h.stride);
    b.in_col0 = geometry::floor_div(b.col0 + w.pad_before - (w.kernel - 1) * w.dilation, w.stride);
  } else {
    b.in_row0 = b.row0 * d.stride_h - d.pad_top;
    b.in_col0 = b.col0 * d.stride_w - d.pad_left;
  }
  return b;
}

// The input plane stack item s (= c * KD + kd) of tile b reads, as an index into the input's
// [N * C_in * D_in] planes, or -1 when its depth lies in the padding or, transposed, when depth tap
// kd lands on output depth od from no input (the window is then all zeros).
KBENCH_HD std::int64_t stack_input_plane(const TiledDesc& d, const BlockTile& b, int s) {
  const std::int64_t c = s / d.kernel_d, kd = s % d.kernel_d;
  std::int64_t id = b.od * d.stride_d - d.pad_front + kd * d.dilation_d;
  if (d.transposed) {  // od = id * s - pad + kd * dil
    const std::int64_t reach = b.od + d.pad_front - kd * d.dilation_d;
    if (floor_mod(reach, d.stride_d) != 0) return -1;
    id = geometry::floor_div(reach, d.stride_d);
  }
  if (id < 0 || id >= d.in_d) return -1;
  return (b.image_group * d.cin_per_group + c) * d.in_d + id;  // n * C_in + g * k + c = ng * k + c
}

// The stack items of tile b that read an input plane ("live"), as bits (item s: bit s), for stacks
// of up to 32 items: the others (a depth tap in the padding; transposed, one landing on no input
// at this output depth) are neither copied nor computed. A transposed 3-D convolution at depth
// stride 2 has half of its items dead at every output depth. Longer stacks report every item
// live: their dead items are copied as zero windows and computed, as a 2-D problem never has any.
inline constexpr int kMaxSkippableStack = 32;

KBENCH_HD std::uint32_t live_items(const TiledDesc& d, const BlockTile& b) {
  if (d.stack() > kMaxSkippableStack) return ~std::uint32_t{0};
  std::uint32_t live = 0;
  for (int s = 0; s < d.stack(); ++s)
    if (stack_input_plane(d, b, s) >= 0) live |= std::uint32_t{1} << s;
  return live;
}

KBENCH_HD bool item_live(std::uint32_t live, int s) { return s >= kMaxSkippableStack || ((live >> s) & 1u) != 0; }

// Whether every item of the stack is live (then the kernel takes its loops without the test).
KBENCH_HD bool all_items_live(const TiledDesc& d, std::uint32_t live) {
  const int stack = d.stack();
  const std::uint32_t every = stack >= kMaxSkippableStack ? ~std::uint32_t{0} : (std::uint32_t{1} << stack) - 1u;
  return live == every;
}

// Where element i of pass `pass`'s weight tile (output channel j of the group, the pass's item q =
// stack item s = pass * chunk + q, 2-D tap t: j * chunk * taps2d + q * taps2d + t) comes from in the
// group's weights, or -1 past the stack (the last pass's missing items). Forward, [C_out, C_in/g,
// KD, KH, KW]: j * stack * taps2d + s * taps2d + t. Transposed, [C_in, C_out/g, KD, KH, KW]: input
// channel c's m output channels come first, so the copy reorders them.
KBENCH_HD int weight_source(const TiledDesc& d, int pass, int i) {
  const int taps = d.taps2d(), per_output = d.tile_weights_per_output();
  const int j = i / per_output, q = (i - j * per_output) / taps, t = i - j * per_output - q * taps;
  const int s = pass * d.chunk + q;
  if (s >= d.stack()) return -1;
  if (!d.transposed) return (j * d.stack() + s) * taps + t;
  const int c = s / d.kernel_d, kd = s - c * d.kernel_d;
  return ((c * static_cast<int>(d.multiplier) + j) * d.kernel_d + kd) * taps + t;
}

// Segment `seg` (< segments_per_window()) of a window: window row and first window column; lane i
// copies column col + i when it is below window_cols.
struct Segment {
  int row = 0, col = 0;
};
KBENCH_HD Segment window_segment(const TiledDesc& d, int seg) {
  const int per_row = d.segments_per_row();
  return Segment{seg / per_row, 32 * (seg % per_row)};
}

// Whether window element (row, col) of tile `b` lies inside the input plane (else it is padding: zero).
KBENCH_HD bool window_in_input(const TiledDesc& d, const BlockTile& b, int row, int col) {
  const std::int64_t ih = b.in_row0 + row, iw = b.in_col0 + col;
  return ih >= 0 && ih < d.in_h && iw >= 0 && iw < d.in_w;
}

// A tile-relative output position (the output is row0 + row, col0 + col, valid inside out_h x out_w).
struct ThreadOutput {
  int row = 0, col = 0;
};

// Thread `tid`'s first output: thread (ty, tx) = (tid / threads_w, tid % threads_w) starts at row
// ty, column tx. Computed once per thread (a division by a run-time width).
KBENCH_HD ThreadOutput thread_origin(const TiledDesc& d, int tid) {
  return ThreadOutput{tid / d.threads_w, tid % d.threads_w};
}

// Its output i < P: i x threads_h rows down, or i x threads_w columns across (one row). A warp's 32
// lanes stay on 32 consecutive columns, for coalesced stores; a partial last tile of rows still
// gives every row of threads work.
KBENCH_HD ThreadOutput thread_output(const TiledDesc& d, const ThreadOutput& origin, int i) {
  return d.along_rows ? ThreadOutput{origin.row + i * d.threads_h(), origin.col}
                      : ThreadOutput{origin.row, origin.col + i * d.threads_w};
}

// How many of a thread's P outputs lie inside the output (the first ones: they grow along one axis).
KBENCH_HD int thread_output_count(const TiledDesc& d, const BlockTile& b, const ThreadOutput& origin) {
  const std::int64_t row = b.row0 + origin.row, col = b.col0 + origin.col;
  if (row >= d.out_h || col >= d.out_w) return 0;
  const std::int64_t left = d.along_rows ? (d.out_h - row + d.threads_h() - 1) / d.threads_h()
                                         : (d.out_w - col + d.threads_w - 1) / d.threads_w;
  return left < d.per_thread ? static_cast<int>(left) : d.per_thread;
}

// From one of a thread's outputs to the next: in a window (floats) and in the output plane.
// Transposed, the outputs lie a multiple of the stride apart (make_tiled_plan), so their inputs lie
// that multiple divided by the stride apart.
KBENCH_HD int window_step(const TiledDesc& d) {
  if (d.transposed)
    return d.along_rows ? d.threads_h() / static_cast<int>(d.phase_h.stride) * d.window_cols
                        : d.threads_w / static_cast<int>(d.phase_w.stride);
  return d.along_rows ? d.threads_h() * d.stride_h * d.window_cols : d.threads_w * d.stride_w;
}
KBENCH_HD std::int64_t output_step(const TiledDesc& d) {
  return d.along_rows ? d.threads_h() * d.out_w : d.threads_w;
}

// Forward: the element of stack item 0's window read by tile-relative output (row, col) through tap
// (kh, kw); item s's is s * window_floats() further.
KBENCH_HD int window_index(const TiledDesc& d, int row, int col, int kh, int kw) {
  return (row * d.stride_h + kh * d.dilation_h) * d.window_cols + col * d.stride_w + kw * d.dilation_w;
}

// Transposed, along one dimension: the taps landing on output o (those of its phase) and where they
// read in a window whose first input coordinate is `window_origin`. Tap j < count is kernel tap
// first_tap + j * tap_step and reads window coordinate window_first - j * window_back.
struct ThreadTaps {
  int count = 0;
  int first_tap = 0, tap_step = 1;
  int window_first = 0, window_back = 0;
};

KBENCH_HD ThreadTaps thread_taps(const PhaseDim& pd, std::int64_t o, std::int64_t window_origin) {
  ThreadTaps t;
  const std::int64_t ph = phase_of(pd, o);
  t.count = static_cast<int>(phase_tap_count(pd, ph));
  if (t.count == 0) return t;
  const std::int64_t k0 = first_tap_of_phase(pd, ph);
  t.first_tap = static_cast<int>(k0);
  t.tap_step = static_cast<int>(pd.period);
  // Exact: tap k0 lands on o, so o + pad - k0 * dil is a multiple of the stride.
  t.window_first = static_cast<int>(geometry::floor_div(o + pd.pad_before - k0 * pd.dilation, pd.stride) - window_origin);
  t.window_back = static_cast<int>(pd.dilation / pd.g);
  return t;
}

// The rows' and the columns' taps of a transposed tile's thread (those of its first output; its
// other outputs share their phases).
KBENCH_HD ThreadTaps thread_row_taps(const TiledDesc& d, const BlockTile& b, const ThreadOutput& origin) {
  return thread_taps(d.phase_h, b.row0 + origin.row, b.in_row0);
}
KBENCH_HD ThreadTaps thread_col_taps(const TiledDesc& d, const BlockTile& b, const ThreadOutput& origin) {
  return thread_taps(d.phase_w, b.col0 + origin.col, b.in_col0);
}

// The compiled instance that runs `d`: forward, 3, 5 or 7 for those square kernels with column
// dilation 1 (taps unrolled, each row's taps at constant offsets from its start), 0 for any other
// shape (taps looped at run time); transposed, kTransposedPairs where no phase has more than 2 taps
// along a dimension (kernel <= 2 x the tap period: a x2 upsampler's 4x4; unrolled), else
// kTransposedInstance (a phase's taps looped).
inline constexpr int kTransposedInstance = -1;
inline constexpr int kTransposedPairs = -2;

inline int instance_kernel(const TiledDesc& d) {
  if (d.transposed) {
    const bool pairs = d.kernel_h <= 2 * d.phase_h.period && d.kernel_w <= 2 * d.phase_w.period;
    return pairs ? kTransposedPairs : kTransposedInstance;
  }
  const bool square = d.kernel_h == d.kernel_w && d.dilation_w == 1;
  return square && (d.kernel_h == 3 || d.kernel_h == 5 || d.kernel_h == 7) ? d.kernel_h : 0;
}

// Calls f(std::integral_constant<int, K>) for the compiled instance that runs `d`
// (K = instance_kernel(d)). The CUDA launcher and the CPU emulation tests dispatch through this.
template <class F>
void with_tiled_instance(const TiledDesc& d, F&& f) {
  switch (instance_kernel(d)) {
    case kTransposedInstance: return f(std::integral_constant<int, kTransposedInstance>{});
    case kTransposedPairs: return f(std::integral_constant<int, kTransposedPairs>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 7: return f(std::integral_constant<int, 7>{});
    default: return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace kbench::gpu::conv::direct_tiled
