#pragma once
// Depthwise convolution (rank 1 or 2) through a shared-memory window: every stride, dilation,
// padding, kernel shape and channel multiplier the register kernel (depthwise2d) does not take.
//
// Tiling in depthwise_tiled_index.hpp: a block copies the input window of its tile of one input
// plane and the plane's m x KH x KW weights into shared memory with asynchronous 4-byte copies (all
// in flight at once, zero-filled in the padding, each warp instruction one 32-column row segment),
// then each thread computes its P outputs of each of the m output channels from there, with
// coalesced streaming stores (a warp = 32 consecutive columns of a row). The input is read from
// memory once per tile (halo rows and columns of neighbouring tiles come mostly from L2, the tiles of
// a plane running together); for m > 1 the window serves all m channels.
//
// Instances: K = 3, 5, 7 for those square kernels with column dilation 1 (taps unrolled, at constant
// offsets from each kernel row's start), K = 0 for any other shape (taps looped, weights read from
// shared memory).
//
// Device code only (the launcher is depthwise_tiled.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/depthwise/depthwise_tiled_index.hpp"

namespace kbench::gpu::conv::depthwise_tiled {

// Blocks per SM the register budget must allow (<= 64 registers a thread): the copy of one block's
// window overlaps the arithmetic of the others only if several are resident.
inline constexpr int kMinBlocksPerSm = 4;

// Copies tile b's input window (zeros where it lies in the padding) and the plane's m x KH x KW
// weights into shared memory, and waits for them with the whole block.
__device__ __forceinline__ void copy_window_and_weights(const TiledDesc& d, const BlockTile& b,
                                                        const float* __restrict__ plane,
                                                        const float* __restrict__ weights, float* window,
                                                        float* weight_tile, int tid) {
  const int warp = tid / 32, lane = tid % 32;
  for (int s = warp; s < d.segments(); s += kWarps) {
    const Segment seg = window_segment(d, s);
    const int col = seg.col + lane;
    if (col >= d.window_cols) continue;
    const bool inside = window_in_input(d, b, seg.row, col);
    // A zero-filled copy reads nothing, but its source must still be a valid address.
    const float* src = inside ? plane + (b.in_row0 + seg.row) * d.in_w + (b.in_col0 + col) : plane;
    cp_async_4(window + seg.row * d.window_cols + col, src, inside);
  }
  for (int i = tid; i < d.weight_floats(); i += kThreads) cp_async_4(weight_tile + i, weights + i, true);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();
}

// Weights held in registers by the K x K instances up to 5 x 5. 7 x 7's are read from shared memory
// (a broadcast): ptxas still hoists those loads out of the per-output loop, which at kMinBlocksPerSm's
// 64 registers costs 40 bytes of spill once per output channel, outside that loop; 49 weights in
// registers by hand spill more (68 bytes).
template <int K>
inline constexpr int kRegisterWeights = K > 0 && K <= 5 ? K * K : 1;

// One output: the taps of the window starting at `at`, a square K x K kernel unrolled (K > 0, its
// weights in registers `wk` up to 5 x 5, else in shared memory `weights`), or any KH x KW kernel
// looped (K == 0).
template <int K>
__device__ __forceinline__ float convolve_at(const TiledDesc& d, const float* at, const float (&wk)[kRegisterWeights<K>],
                                             const float* weights, float acc) {
  const int row_step = d.dilation_h * d.window_cols;
  if constexpr (K > 0) {
    // Column dilation 1 (instance_kernel): the taps of a row sit at constant offsets from its start.
#pragma unroll
    for (int kh = 0; kh < K; ++kh)
#pragma unroll
      for (int kw = 0; kw < K; ++kw) {
        float wt;
        if constexpr (kRegisterWeights<K> > 1) {
          wt = wk[kh * K + kw];
        } else {
          wt = weights[kh * K + kw];
        }
        acc = fmaf(at[kh * row_step + kw], wt, acc);
      }
  } else {
    for (int kh = 0; kh < d.kernel_h; ++kh)
      for (int kw = 0; kw < d.kernel_w; ++kw)
        acc = fmaf(at[kh * row_step + kw * d.dilation_w], weights[kh * d.kernel_w + kw], acc);
  }
  return acc;
}

template <int K>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    depthwise_tiled_kernel(const TiledDesc d, const float* __restrict__ x, const float* __restrict__ w,
                           const float* __restrict__ bias, float* __restrict__ y) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* window = reinterpret_cast<float*>(smem);
  float* weight_tile = window + d.window_floats();
  const BlockTile b = block_tile(d, blockIdx.x);
  const int tid = static_cast<int>(threadIdx.x);
  const std::int64_t c = b.plane % d.channels, n = b.plane / d.channels;
  // Weights [C_out, 1, KH, KW]: the m output channels of input channel c are c*m .. c*m + m-1.
  copy_window_and_weights(d, b, x + b.plane * d.in_h * d.in_w, w + c * d.multiplier * d.taps(), window,
                          weight_tile, tid);

  const ThreadOutput origin = thread_origin(d, tid);
  const int count = thread_output_count(d, b, origin);
  if (count == 0) return;  // past the output's edge (no barrier follows)
  const int step_in = window_step(d);
  const std::int64_t step_out = output_step(d);
  for (int j = 0; j < d.multiplier; ++j) {
    const std::int64_t co = c * d.multiplier + j;
    const float b0 = bias != nullptr ? __ldg(bias + co) : 0.0f;
    const float* weights = weight_tile + j * d.taps();
    float wk[kRegisterWeights<K>];
#pragma unroll
    for (int t = 0; t < kRegisterWeights<K>; ++t) wk[t] = weights[t];
    float* out = y + (n * d.channels * d.multiplier + co) * d.out_h * d.out_w + (b.row0 + origin.row) * d.out_w +
                 b.col0 + origin.col;
    const float* at = window + window_index(d, origin.row, origin.col, 0, 0);
    // A thread's outputs lie along one axis: two pointers step, nothing is recomputed per output.
    for (int i = 0; i < count; ++i, at += step_in, out += step_out)
      __stcs(out, convolve_at<K>(d, at, wk, weights, b0));
  }
}

}  // namespace kbench::gpu::conv::depthwise_tiled
