#pragma once
// Direct convolution through shared memory, for the convolutions a GEMM does not pay for: depthwise
// (every stride, dilation, padding, kernel shape and depth multiplier the register kernel
// depthwise2d does not take), groups of a few channels, 1-D to 3-D, forward or transposed.
//
// Tiling in direct_tiled_index.hpp: a block copies the input windows of its tile (one per input
// channel of the group and depth tap: the "stack") and the group's weights into shared memory with
// asynchronous 4-byte copies (all in flight at once, zero-filled in the padding, each warp
// instruction one 32-column row segment), then each thread computes its P outputs of each of the m
// output channels of the group from there, with coalesced streaming stores (a warp = 32 consecutive
// columns of a row). The input is read from memory once per tile (halo rows and columns of
// neighbouring tiles, and input planes shared by neighbouring output depths, come mostly from L2:
// those blocks run together); the windows serve all m output channels.
//
// Instances: K = 3, 5, 7 for those forward square kernels with column dilation 1 (taps unrolled, at
// constant offsets from each kernel row's start), K = 0 for any other forward shape (taps looped),
// K = kTransposedInstance for transposed problems (each thread loops over its phase's taps, fixed
// for all its outputs), K = kTransposedPairs for those with at most 2 x 2 taps a phase (a x2
// upsampler's 4x4: unrolled, each tap predicated). Where the stack is one window (2-D depthwise) the
// forward 3x3 and 5x5 instances and the transposed pairs keep an output channel's weights in
// registers; otherwise weights are read from shared memory (a broadcast).
//
// Device code only (the launcher is direct_tiled.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/direct/direct_tiled_index.hpp"

namespace kbench::gpu::conv::direct_tiled {

// Blocks per SM the register budget must allow (<= 64 registers a thread): the copy of one block's
// windows overlaps the arithmetic of the others only if several are resident.
inline constexpr int kMinBlocksPerSm = 4;

// Copies tile b's stack of input windows (zeros where they lie in the padding) and the group's
// weights into shared memory, and waits for them with the whole block. Dead items (live_items)
// are left uncopied: the arithmetic skips them.
__device__ __forceinline__ void copy_windows_and_weights(const TiledDesc& d, const BlockTile& b, std::uint32_t live,
                                                         const float* __restrict__ x,
                                                         const float* __restrict__ weights, float* windows,
                                                         float* weight_tile, int tid) {
  const int warp = tid / 32, lane = tid % 32;
  const int per_window = d.segments_per_window();
  for (int item = warp; item < d.stack() * per_window; item += kWarps) {
    const int s = item / per_window;
    const Segment seg = window_segment(d, item - s * per_window);
    const int col = seg.col + lane;
    if (col >= d.window_cols || !item_live(live, s)) continue;
    const std::int64_t plane = stack_input_plane(d, b, s);
    const bool inside = plane >= 0 && window_in_input(d, b, seg.row, col);
    // A zero-filled copy reads nothing, but its source must still be a valid address.
    const float* src = inside ? x + (plane * d.in_h + b.in_row0 + seg.row) * d.in_w + (b.in_col0 + col) : x;
    cp_async_4(windows + s * d.window_floats() + seg.row * d.window_cols + col, src, inside);
  }
  for (int i = tid; i < d.weight_floats(); i += kThreads) cp_async_4(weight_tile + i, weights + weight_source(d, i), true);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();
}

// 3x3 and 5x5 weights of a one-window stack in registers; 7x7's 49 would not fit the 64-register
// budget (ptxas spills: 68 bytes), so they stay in shared memory like every stacked kernel's.
template <int K>
inline constexpr int kRegisterWeights = K > 0 && K <= 5 ? K * K : 1;

// One stack item's taps for one output, added to `acc`: the window at `at`, weights `w` (taps2d
// floats, in registers or shared memory). K > 0: a square K x K kernel unrolled, each kernel row's
// taps at constant offsets (column dilation 1); K == 0: any KH x KW kernel looped.
template <int K, class Weights>
__device__ __forceinline__ float add_taps(const TiledDesc& d, const float* at, const Weights& w, float acc) {
  const int row_step = d.dilation_h * d.window_cols;
  if constexpr (K > 0) {
#pragma unroll
    for (int kh = 0; kh < K; ++kh)
#pragma unroll
      for (int kw = 0; kw < K; ++kw) acc = fmaf(at[kh * row_step + kw], w[kh * K + kw], acc);
  } else {
    for (int kh = 0; kh < d.kernel_h; ++kh)
      for (int kw = 0; kw < d.kernel_w; ++kw)
        acc = fmaf(at[kh * row_step + kw * d.dilation_w], w[kh * d.kernel_w + kw], acc);
  }
  return acc;
}

// Transposed: a thread's taps (its phase's, the same for all its outputs). Tap (jh, jw), jh <
// rows.count, jw < cols.count, reads the window `jh * row_back + jw * cols.window_back` floats before
// the element of its first taps, with weight first_w + jh * row_w + jw * cols.tap_step of an item.
struct PhaseTaps {
  ThreadTaps rows, cols;
  int row_back = 0;  // window floats from one row tap to the next
  int first_w = 0, row_w = 0;
};

__device__ __forceinline__ PhaseTaps phase_taps(const TiledDesc& d, const BlockTile& b, const ThreadOutput& origin) {
  PhaseTaps t;
  t.rows = thread_row_taps(d, b, origin);
  t.cols = thread_col_taps(d, b, origin);
  t.row_back = t.rows.window_back * d.window_cols;
  t.first_w = t.rows.first_tap * d.kernel_w + t.cols.first_tap;
  t.row_w = t.rows.tap_step * d.kernel_w;
  return t;
}

// One stack item's phase taps for one output, added to `acc`, looped; `at` is the element of the
// first taps, `w` the item's taps2d weights.
__device__ __forceinline__ float add_phase_taps(const PhaseTaps& t, const float* at, const float* w, float acc) {
  for (int jh = 0; jh < t.rows.count; ++jh)
    for (int jw = 0; jw < t.cols.count; ++jw)
      acc = fmaf(at[-jh * t.row_back - jw * t.cols.window_back], w[t.first_w + jh * t.row_w + jw * t.cols.tap_step],
                 acc);
  return acc;
}

// The same with at most 2 x 2 taps, unrolled: tap q = 2 jh + jw at window offset offset[q] and item
// weight weight[q] when present[q] (predicated; an absent tap's offset could leave the window).
struct PairTaps {
  int offset[4], weight[4];
  bool present[4];
};

__device__ __forceinline__ PairTaps pair_taps(const PhaseTaps& t) {
  PairTaps p;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int jh = q / 2, jw = q % 2;
    p.present[q] = jh < t.rows.count && jw < t.cols.count;
    p.offset[q] = -jh * t.row_back - jw * t.cols.window_back;
    p.weight[q] = t.first_w + jh * t.row_w + jw * t.cols.tap_step;
  }
  return p;
}

template <class Weight>
__device__ __forceinline__ float add_pair_taps(const PairTaps& p, const float* at, Weight weight, float acc) {
#pragma unroll
  for (int q = 0; q < 4; ++q)
    if (p.present[q]) acc = fmaf(at[p.offset[q]], weight(q), acc);
  return acc;
}

template <int K>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    direct_tiled_kernel(const TiledDesc d, const float* __restrict__ x, const float* __restrict__ w,
                        const float* __restrict__ bias, float* __restrict__ y) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* windows = reinterpret_cast<float*>(smem);
  float* weight_tile = windows + d.stack_floats();
  const BlockTile b = block_tile(d, blockIdx.x);
  const int tid = static_cast<int>(threadIdx.x);
  // Weights [C_out, k, KD, KH, KW]: group g's m output channels are g*m .. g*m + m-1, consecutive.
  const std::int64_t g = b.image_group % d.groups;
  const std::uint32_t live = live_items(d, b);
  copy_windows_and_weights(d, b, live, x, w + g * d.weight_floats(), windows, weight_tile, tid);

  const ThreadOutput origin = thread_origin(d, tid);
  const int count = thread_output_count(d, b, origin);
  if (count == 0) return;  // past the output's edge (no barrier follows)
  const int step_in = window_step(d);
  const std::int64_t step_out = output_step(d);
  const int stack = d.stack(), window_floats = d.window_floats(), taps2d = d.taps2d();
  const bool all_live = all_items_live(d, live);  // block-uniform
  // Forward: the window element of the thread's first output and tap (0, 0). Transposed: that of
  // its first output and the first taps of its phase, from which the others lie backwards.
  constexpr bool kTransposed = K == kTransposedInstance || K == kTransposedPairs;
  PhaseTaps taps;
  PairTaps pairs;
  const float* first_at = nullptr;
  if constexpr (kTransposed) {
    taps = phase_taps(d, b, origin);
    if constexpr (K == kTransposedPairs) pairs = pair_taps(taps);
    first_at = windows + taps.rows.window_first * d.window_cols + taps.cols.window_first;
  } else {
    first_at = windows + window_index(d, origin.row, origin.col, 0, 0);
  }
  for (int j = 0; j < d.multiplier; ++j) {
    const std::int64_t co = g * d.multiplier + j;
    const float b0 = bias != nullptr ? __ldg(bias + co) : 0.0f;
    const float* wj = weight_tile + j * d.weights_per_output();
    // Output [N, C_out, D, H, W]: n * C_out + co = (n * groups + g) * m + j.
    float* out = y + (((b.image_group * d.multiplier + j) * d.out_d + b.od) * d.out_h + b.row0 + origin.row) * d.out_w +
                 b.col0 + origin.col;
    const float* at = first_at;
    // A thread's outputs lie along one axis: two pointers step, nothing is recomputed per output.
    if constexpr (kRegisterWeights<K> > 1) {
      if (stack == 1 && all_live) {
        float wk[kRegisterWeights<K>];
#pragma unroll
        for (int t = 0; t < kRegisterWeights<K>; ++t) wk[t] = wj[t];
        for (int i = 0; i < count; ++i, at += step_in, out += step_out) __stcs(out, add_taps<K>(d, at, wk, b0));
        continue;
      }
    }
    if constexpr (K == kTransposedPairs) {
      if (stack == 1 && all_live) {  // the thread's (up to) four weights of channel j in registers
        float wk[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) wk[q] = pairs.present[q] ? wj[pairs.weight[q]] : 0.0f;
        for (int i = 0; i < count; ++i, at += step_in, out += step_out)
          __stcs(out, add_pair_taps(pairs, at, [&](int q) { return wk[q]; }, b0));
        continue;
      }
    }
    for (int i = 0; i < count; ++i, at += step_in, out += step_out) {
      float acc = b0;
      for (int s = 0; s < stack; ++s) {
        if (!all_live && !item_live(live, s)) continue;  // uncopied: no input lands through it here
        const float* item_w = wj + s * taps2d;
        if constexpr (K == kTransposedPairs)
          acc = add_pair_taps(pairs, at + s * window_floats, [&](int q) { return item_w[pairs.weight[q]]; }, acc);
        else if constexpr (K == kTransposedInstance)
          acc = add_phase_taps(taps, at + s * window_floats, item_w, acc);
        else
          acc = add_taps<K>(d, at + s * window_floats, item_w, acc);
      }
      __stcs(out, acc);
    }
  }
}

}  // namespace kbench::gpu::conv::direct_tiled
