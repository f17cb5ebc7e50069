#pragma once
// Direct convolution through shared memory, for the convolutions a GEMM does not pay for: depthwise
// (every stride, dilation, padding, kernel shape and depth multiplier the register kernel
// depthwise2d does not take), groups of a few channels, 1-D to 3-D, forward or transposed.
//
// Tiles: direct_tiled_params.hpp and direct_tiled_index.hpp: a block copies the input windows of its tile (one per
// input channel of the group and depth tap: the "stack") and the group's weights into shared memory with asynchronous
// 4-byte copies (all in flight at once, zero-filled in the padding, each warp instruction one 32-column row segment),
// then each thread computes its P outputs of each of the m output channels of the group from there, with coalesced
// streaming stores (a warp = 32 consecutive columns of a row). The input is read from memory once per tile (halo rows
// and columns of neighbouring tiles, and input planes shared by neighbouring output depths, come mostly from L2: those
// blocks run together); the windows serve all m output channels. A stack too deep for 48 KB (few output channels, many
// input channels) comes in passes: each pass's windows and weights are copied in turn and added into partial sums kept
// in shared memory (compute_in_passes).
//
// Instances: K = 3, 5, 7 for those forward square kernels with column dilation 1 (taps unrolled, at
// constant offsets from each kernel row's start), K = 0 for any other forward shape (taps looped),
// K = kTransposedInstance for transposed problems (each thread loops over its phase's taps, fixed
// for all its outputs), K = kTransposedPairs for those with at most 2 x 2 taps a phase (a x2
// upsampler's 4x4: unrolled, each tap predicated). Where the stack is one window (2-D depthwise) the
// forward 3x3 and 5x5 instances and the transposed pairs keep an output channel's weights in
// registers; otherwise weights are read from shared memory (a broadcast).
//
// Element types: fp32 copies its windows and weights with cp.async; fp16 and bf16 (cp.async has no
// 2-byte copy) load, widen and store them, so shared memory and the arithmetic are fp32 in every dtype,
// and each output is rounded once at its store. NCHW only (the windows are rows of a plane).
//
// Device code only (its entry point is direct_tiled.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/common/element.hpp"
#include "cuda/direct/direct_tiled_index.hpp"

namespace kbench::gpu::conv::direct_tiled {

// Blocks per SM the register budget must allow (<= 64 registers a thread): the copy of one block's
// windows overlaps the arithmetic of the others only if several are resident.
inline constexpr int kMinBlocksPerSm = 4;

// One element into shared memory as fp32: an asynchronous copy (zero-filled when !inside; `src`
// valid regardless), or for 16-bit types a load and an exact widening.
template <DType kType>
__device__ __forceinline__ void copy_to_shared(float* dst, const Storage<kType>* src, bool inside) {
  if constexpr (kType == DType::fp32) {
    cp_async_4(dst, src, inside);
  } else {
    *dst = inside ? Element<kType>::widen(*src) : 0.0f;
  }
}

template <DType kType>
__device__ __forceinline__ float load_bias(const Storage<kType>* bias, std::int64_t i) {
  if constexpr (kType == DType::fp32) {
    return __ldg(bias + i);
  } else {
    return Element<kType>::widen(bias[i]);
  }
}

// An output, rounded once to the element type; fp32 by a streaming store.
template <DType kType>
__device__ __forceinline__ void store_output(Storage<kType>* out, float v) {
  if constexpr (kType == DType::fp32) {
    __stcs(out, v);
  } else {
    *out = Element<kType>::narrow(v);
  }
}

// Copies pass `pass`'s input windows of tile b (its items, zeros where they lie in the padding)
// and their weights of the group into shared memory, and waits for them with the whole block. Dead
// items (live_items) are left uncopied: the arithmetic skips them.
template <DType kType>
__device__ __forceinline__ void copy_pass(const DirectTiledParams& d, const BlockTile& b, std::uint32_t live, int pass,
                                          const Storage<kType>* __restrict__ x,
                                          const Storage<kType>* __restrict__ weights, float* windows,
                                          float* weight_tile, int tid) {
  const int warp = tid / 32, lane = tid % 32;
  const int per_window = d.segments_per_window(), first_item = pass * d.chunk;
  for (int item = warp; item < d.pass_items(pass) * per_window; item += kWarps) {
    const int q = item / per_window, s = first_item + q;
    const Segment seg = window_segment(d, item - q * per_window);
    const int col = seg.col + lane;
    if (col >= d.window_cols || !item_live(live, s)) continue;
    const std::int64_t plane = stack_input_plane(d, b, s);
    const bool inside = plane >= 0 && window_in_input(d, b, seg.row, col);
    // A zero-filled copy reads nothing, but its source must still be a valid address.
    const Storage<kType>* src =
        inside ? x + (plane * d.in_h + b.in_row0 + seg.row) * d.in_w + (b.in_col0 + col) : x;
    copy_to_shared<kType>(windows + q * d.window_floats() + seg.row * d.window_cols + col, src, inside);
  }
  for (int i = tid; i < d.tile_weight_floats(); i += kThreads) {
    const int source = weight_source(d, pass, i);
    if (source >= 0) copy_to_shared<kType>(weight_tile + i, weights + source, true);
  }
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();
}

// 3x3 and 5x5 weights of a one-window stack in registers; 7x7's 49 would not fit the 64-register
// budget (ptxas spills: 68 bytes), so they stay in shared memory like every stacked kernel's.
template <int K>
inline constexpr int kRegisterWeights = K > 0 && K <= 5 ? K* K : 1;

// One stack item's taps for one output, added to `acc`: the window at `at`, weights `w` (taps2d
// floats, in registers or shared memory). K > 0: a square K x K kernel unrolled, each kernel row's
// taps at constant offsets (column dilation 1); K == 0: any KH x KW kernel looped.
template <int K, class Weights>
__device__ __forceinline__ float add_taps(const DirectTiledParams& d, const float* at, const Weights& w, float acc) {
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

__device__ __forceinline__ PhaseTaps phase_taps(const DirectTiledParams& d, const BlockTile& b, const ThreadOutput& origin) {
  PhaseTaps t;
  t.rows = thread_row_taps(d, b, origin);
  t.cols = thread_col_taps(d, b, origin);
  t.first_w = t.rows.first_tap * d.kernel_w + t.cols.first_tap;
  // The steps to a second row tap, where there is one: a single tap's (stride or dilation near 2^30)
  // would overflow int and is never taken.
  if (t.rows.count > 1) {
    t.row_back = t.rows.window_back * d.window_cols;
    t.row_w = t.rows.tap_step * d.kernel_w;
  }
  return t;
}

// One stack item's phase taps for one output, added to `acc`, looped; `at` is the element of the
// first taps, `w` the item's taps2d weights.
__device__ __forceinline__ float add_phase_taps(const PhaseTaps& t, const float* at, const float* w, float acc) {
  for (int jh = 0; jh < t.rows.count; ++jh)
    for (int jw = 0; jw < t.cols.count; ++jw)
      acc =
          fmaf(at[-jh * t.row_back - jw * t.cols.window_back], w[t.first_w + jh * t.row_w + jw * t.cols.tap_step], acc);
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
    // An absent tap's steps may lie beyond int (a single tap at a stride near 2^30): never formed.
    p.offset[q] = p.present[q] ? -jh * t.row_back - jw * t.cols.window_back : 0;
    p.weight[q] = p.present[q] ? t.first_w + jh * t.row_w + jw * t.cols.tap_step : 0;
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

// What a thread computes, set up once: its first output and how many it has, the two pointer steps,
// and the window element of its first output and first taps (forward: tap (0, 0); transposed: its
// phase's first taps, from which the others lie backwards, `taps` and `pairs`).
struct ThreadWork {
  ThreadOutput origin;
  int count = 0;
  int step_in = 0;
  std::int64_t step_out = 0;
  const float* first_at = nullptr;
  PhaseTaps taps;
  PairTaps pairs;
};

template <int K>
__device__ __forceinline__ ThreadWork thread_work(const DirectTiledParams& d, const BlockTile& b, const float* windows,
                                                  int tid) {
  ThreadWork t;
  t.origin = thread_origin(d, tid);
  t.count = thread_output_count(d, b, t.origin);
  t.step_in = window_step(d);
  t.step_out = output_step(d);
  if constexpr (K == kTransposedInstance || K == kTransposedPairs) {
    t.taps = phase_taps(d, b, t.origin);
    if constexpr (K == kTransposedPairs) t.pairs = pair_taps(t.taps);
    t.first_at = windows + t.taps.rows.window_first * d.window_cols + t.taps.cols.window_first;
  } else {
    t.first_at = windows + window_index(d, t.origin.row, t.origin.col, 0, 0);
  }
  return t;
}

// Items [0, items) of the windows in shared memory (stack items first_item onwards) for one output,
// added to `acc`: `at` is the output's element in the first window, `w` one output channel's
// weights for them (items x taps2d). Dead items are skipped (uncopied).
template <int K>
__device__ __forceinline__ float add_items(const DirectTiledParams& d, const ThreadWork& t, const float* at, const float* w,
                                           int first_item, int items, std::uint32_t live, bool all_live, float acc) {
  const int window_floats = d.window_floats(), taps2d = d.taps2d();
  for (int q = 0; q < items; ++q) {
    if (!all_live && !item_live(live, first_item + q)) continue;
    const float* item_at = at + q * window_floats;
    const float* item_w = w + q * taps2d;
    if constexpr (K == kTransposedPairs)
      acc = add_pair_taps(
          t.pairs, item_at, [&](int i) { return item_w[t.pairs.weight[i]]; }, acc);
    else if constexpr (K == kTransposedInstance)
      acc = add_phase_taps(t.taps, item_at, item_w, acc);
    else
      acc = add_taps<K>(d, item_at, item_w, acc);
  }
  return acc;
}

// Output [N, C_out, D, H, W] of output channel j of tile b's group at the thread's first output:
// n * C_out + co = (n * groups + g) * m + j.
template <class T>
__device__ __forceinline__ T* output_at(const DirectTiledParams& d, const BlockTile& b, const ThreadOutput& origin, int j,
                                        T* y) {
  return y + (((b.image_group * d.multiplier + j) * d.out_d + b.od) * d.out_h + b.row0 + origin.row) * d.out_w +
         b.col0 + origin.col;
}

// A stack in several passes: the outputs' partial sums wait in shared memory (thread-minor, so a
// warp's accesses hit 32 banks) from one pass to the next; the last pass stores them. Every thread
// takes part in every pass's copy and barriers, outputs or not.
template <int K, DType kType>
__device__ __forceinline__ void compute_in_passes(const DirectTiledParams& d, const BlockTile& b, std::uint32_t live,
                                                  const ThreadWork& t, const Storage<kType>* __restrict__ x,
                                                  const Storage<kType>* __restrict__ weights,
                                                  const Storage<kType>* __restrict__ bias,
                                                  Storage<kType>* __restrict__ y, float* windows, float* weight_tile,
                                                  float* partial, int tid) {
  const std::int64_t g = b.image_group % d.groups;
  const bool all_live = all_items_live(d, live);
  const int passes = d.passes();
  for (int pass = 0; pass < passes; ++pass) {
    if (pass > 0) __syncthreads();  // every thread is done with the previous pass's windows
    copy_pass<kType>(d, b, live, pass, x, weights, windows, weight_tile, tid);
    const bool first = pass == 0, last = pass + 1 == passes;
    for (int j = 0; j < d.multiplier; ++j) {
      const float b0 = first && bias != nullptr ? load_bias<kType>(bias, g * d.multiplier + j) : 0.0f;
      const float* wj = weight_tile + j * d.tile_weights_per_output();
      float* sums = partial + j * d.per_thread * kThreads + tid;  // output i at sums[i * kThreads]
      Storage<kType>* out = output_at(d, b, t.origin, j, y);
      const float* at = t.first_at;
      for (int i = 0; i < t.count; ++i, at += t.step_in, out += t.step_out) {
        float acc = first ? b0 : sums[i * kThreads];
        acc = add_items<K>(d, t, at, wj, pass * d.chunk, d.pass_items(pass), live, all_live, acc);
        if (last)
          store_output<kType>(out, acc);
        else
          sums[i * kThreads] = acc;
      }
    }
  }
}

template <int K, DType kType>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    direct_tiled_kernel(const DirectTiledParams d, const Storage<kType>* __restrict__ x, const Storage<kType>* __restrict__ w,
                        const Storage<kType>* __restrict__ bias, Storage<kType>* __restrict__ y) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* windows = reinterpret_cast<float*>(smem);
  float* weight_tile = windows + d.chunk_floats();
  const BlockTile b = block_tile(d, blockIdx.x);
  const int tid = static_cast<int>(threadIdx.x);
  // Weights [C_out, k, KD, KH, KW]: group g's m output channels are g*m .. g*m + m-1, consecutive.
  const std::int64_t g = b.image_group % d.groups;
  const Storage<kType>* group_w = w + g * d.weight_floats();
  const std::uint32_t live = live_items(d, b);
  const ThreadWork t = thread_work<K>(d, b, windows, tid);
  if (d.passes() > 1) {
    compute_in_passes<K, kType>(d, b, live, t, x, group_w, bias, y, windows, weight_tile,
                                weight_tile + d.tile_weight_floats(), tid);
    return;
  }
  copy_pass<kType>(d, b, live, 0, x, group_w, windows, weight_tile, tid);
  if (t.count == 0) return;  // past the output's edge (no barrier follows)
  const int stack = d.stack();
  const bool all_live = all_items_live(d, live);  // block-uniform
  for (int j = 0; j < d.multiplier; ++j) {
    const float b0 = bias != nullptr ? load_bias<kType>(bias, g * d.multiplier + j) : 0.0f;
    const float* wj = weight_tile + j * d.tile_weights_per_output();
    Storage<kType>* out = output_at(d, b, t.origin, j, y);
    const float* at = t.first_at;
    const int count = t.count, step_in = t.step_in;
    const std::int64_t step_out = t.step_out;
    const PairTaps& pairs = t.pairs;
    // A thread's outputs lie along one axis: two pointers step, nothing is recomputed per output.
    if constexpr (kRegisterWeights < K >> 1) {
      if (stack == 1 && all_live) {
        float wk[kRegisterWeights<K>];
#pragma unroll
        for (int k = 0; k < kRegisterWeights<K>; ++k) wk[k] = wj[k];
        for (int i = 0; i < count; ++i, at += step_in, out += step_out)
          store_output<kType>(out, add_taps<K>(d, at, wk, b0));
        continue;
      }
    }
    if constexpr (K == kTransposedPairs) {
      if (stack == 1 && all_live) {  // the thread's (up to) four weights of channel j in registers
        float wk[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) wk[q] = pairs.present[q] ? wj[pairs.weight[q]] : 0.0f;
        for (int i = 0; i < count; ++i, at += step_in, out += step_out)
          store_output<kType>(out, add_pair_taps(
                                       pairs, at, [&](int q) { return wk[q]; }, b0));
        continue;
      }
    }
    for (int i = 0; i < count; ++i, at += step_in, out += step_out)
      store_output<kType>(out, add_items<K>(d, t, at, wj, 0, stack, live, all_live, b0));
  }
}

}  // namespace kbench::gpu::conv::direct_tiled
