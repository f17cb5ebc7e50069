#pragma once
// Index arithmetic of the shared-memory direct convolution (direct_tiled_kernel.cuh) over its launch
// description (direct_tiled_params.hpp), shared with the CPU tests.
//
// For the convolutions a GEMM does not pay for: few output channels per group, or a short
// reduction (depthwise and its depth-multiplier forms, ResNeXt-style groups of a few channels),
// forward or transposed. Without this kernel they run on `direct`, one thread per output re-reading
// every input element from L1 or L2 once per tap; the register depthwise kernel (depthwise2d) takes
// only stride 1, dilation 1 and square 3/5/7 kernels on 16-byte rows, and the phase GEMMs of a
// transposed convolution need 8 output channels per group. This one takes any rank, stride,
// dilation, padding and kernel shape, as long as its windows fit in shared memory.
//
// The problem is taken as rank 3 (as_rank3: D, H, W). A block of 256 threads owns a tile
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
#include <type_traits>

#include "core/host_device.hpp"
#include "cuda/direct/direct_tiled_params.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_geometry.hpp"

namespace kbench::gpu::conv::direct_tiled {

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
KBENCH_HD BlockTile block_tile(const DirectTiledParams& d, std::int64_t block) {
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
KBENCH_HD std::int64_t stack_input_plane(const DirectTiledParams& d, const BlockTile& b, int s) {
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

KBENCH_HD std::uint32_t live_items(const DirectTiledParams& d, const BlockTile& b) {
  if (d.stack() > kMaxSkippableStack) return ~std::uint32_t{0};
  std::uint32_t live = 0;
  for (int s = 0; s < d.stack(); ++s)
    if (stack_input_plane(d, b, s) >= 0) live |= std::uint32_t{1} << s;
  return live;
}

KBENCH_HD bool item_live(std::uint32_t live, int s) { return s >= kMaxSkippableStack || ((live >> s) & 1u) != 0; }

// Whether every item of the stack is live (then the kernel takes its loops without the test).
KBENCH_HD bool all_items_live(const DirectTiledParams& d, std::uint32_t live) {
  const int stack = d.stack();
  const std::uint32_t every = stack >= kMaxSkippableStack ? ~std::uint32_t{0} : (std::uint32_t{1} << stack) - 1u;
  return live == every;
}

// Where element i of pass `pass`'s weight tile (output channel j of the group, the pass's item q =
// stack item s = pass * chunk + q, 2-D tap t: j * chunk * taps2d + q * taps2d + t) comes from in the
// group's weights, or -1 past the stack (the last pass's missing items). Forward, [C_out, C_in/g,
// KD, KH, KW]: j * stack * taps2d + s * taps2d + t. Transposed, [C_in, C_out/g, KD, KH, KW]: input
// channel c's m output channels come first, so the copy reorders them.
KBENCH_HD int weight_source(const DirectTiledParams& d, int pass, int i) {
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
KBENCH_HD Segment window_segment(const DirectTiledParams& d, int seg) {
  const int per_row = d.segments_per_row();
  return Segment{seg / per_row, 32 * (seg % per_row)};
}

// Whether window element (row, col) of tile `b` lies inside the input plane (else it is padding: zero).
KBENCH_HD bool window_in_input(const DirectTiledParams& d, const BlockTile& b, int row, int col) {
  const std::int64_t ih = b.in_row0 + row, iw = b.in_col0 + col;
  return ih >= 0 && ih < d.in_h && iw >= 0 && iw < d.in_w;
}

// A tile-relative output position (the output is row0 + row, col0 + col, valid inside out_h x out_w).
struct ThreadOutput {
  int row = 0, col = 0;
};

// Thread `tid`'s first output: thread (ty, tx) = (tid / threads_w, tid % threads_w) starts at row
// ty, column tx. Computed once per thread (a division by a run-time width).
KBENCH_HD ThreadOutput thread_origin(const DirectTiledParams& d, int tid) {
  return ThreadOutput{tid / d.threads_w, tid % d.threads_w};
}

// Its output i < P: i x threads_h rows down, or i x threads_w columns across (one row). A warp's 32
// lanes stay on 32 consecutive columns, for coalesced stores; a partial last tile of rows still
// gives every row of threads work.
KBENCH_HD ThreadOutput thread_output(const DirectTiledParams& d, const ThreadOutput& origin, int i) {
  return d.along_rows ? ThreadOutput{origin.row + i * d.threads_h(), origin.col}
                      : ThreadOutput{origin.row, origin.col + i * d.threads_w};
}

// How many of a thread's P outputs lie inside the output (the first ones: they grow along one axis).
KBENCH_HD int thread_output_count(const DirectTiledParams& d, const BlockTile& b, const ThreadOutput& origin) {
  const std::int64_t row = b.row0 + origin.row, col = b.col0 + origin.col;
  if (row >= d.out_h || col >= d.out_w) return 0;
  const std::int64_t left = d.along_rows ? (d.out_h - row + d.threads_h() - 1) / d.threads_h()
                                         : (d.out_w - col + d.threads_w - 1) / d.threads_w;
  return left < d.per_thread ? static_cast<int>(left) : d.per_thread;
}

// From one of a thread's outputs to the next: in a window (floats) and in the output plane.
// Transposed, the outputs lie a multiple of the stride apart (make_params), so their inputs lie
// that multiple divided by the stride apart.
KBENCH_HD int window_step(const DirectTiledParams& d) {
  if (d.transposed)
    return d.along_rows ? d.threads_h() / static_cast<int>(d.phase_h.stride) * d.window_cols
                        : d.threads_w / static_cast<int>(d.phase_w.stride);
  return d.along_rows ? d.threads_h() * d.stride_h * d.window_cols : d.threads_w * d.stride_w;
}
KBENCH_HD std::int64_t output_step(const DirectTiledParams& d) { return d.along_rows ? d.threads_h() * d.out_w : d.threads_w; }

// Forward: the element of stack item 0's window read by tile-relative output (row, col) through tap
// (kh, kw); item s's is s * window_floats() further.
KBENCH_HD int window_index(const DirectTiledParams& d, int row, int col, int kh, int kw) {
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
  t.window_first =
      static_cast<int>(geometry::floor_div(o + pd.pad_before - k0 * pd.dilation, pd.stride) - window_origin);
  t.window_back = static_cast<int>(pd.dilation / pd.g);
  return t;
}

// The rows' and the columns' taps of a transposed tile's thread (those of its first output; its
// other outputs share their phases).
KBENCH_HD ThreadTaps thread_row_taps(const DirectTiledParams& d, const BlockTile& b, const ThreadOutput& origin) {
  return thread_taps(d.phase_h, b.row0 + origin.row, b.in_row0);
}
KBENCH_HD ThreadTaps thread_col_taps(const DirectTiledParams& d, const BlockTile& b, const ThreadOutput& origin) {
  return thread_taps(d.phase_w, b.col0 + origin.col, b.in_col0);
}

// The compiled instance that runs `d`: forward, 3, 5 or 7 for those square kernels with column
// dilation 1 (taps unrolled, each row's taps at constant offsets from its start), 0 for any other
// shape (taps looped at run time); transposed, kTransposedPairs where no phase has more than 2 taps
// along a dimension (kernel <= 2 x the tap period: a x2 upsampler's 4x4; unrolled), else
// kTransposedInstance (a phase's taps looped).
inline constexpr int kTransposedInstance = -1;
inline constexpr int kTransposedPairs = -2;

inline int instance_kernel(const DirectTiledParams& d) {
  if (d.transposed) {
    const bool pairs = d.kernel_h <= 2 * d.phase_h.period && d.kernel_w <= 2 * d.phase_w.period;
    return pairs ? kTransposedPairs : kTransposedInstance;
  }
  const bool square = d.kernel_h == d.kernel_w && d.dilation_w == 1;
  return square && (d.kernel_h == 3 || d.kernel_h == 5 || d.kernel_h == 7) ? d.kernel_h : 0;
}

// Calls f(std::integral_constant<int, K>) for the compiled instance that runs `d`
// (K = instance_kernel(d)). The CUDA entry point and the CPU emulation tests dispatch through this.
template <class F>
void with_tiled_instance(const DirectTiledParams& d, F&& f) {
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
