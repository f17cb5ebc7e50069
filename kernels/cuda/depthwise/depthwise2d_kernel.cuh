#pragma once
// Depthwise 2-D convolution, memory-bound (problem 84: 8.5 GB moved, ~19 GFLOP).
//
// Tiling in depthwise_index.hpp: a block = 128 threads over 512 output columns of a strip of 32 output
// rows of one (n, c) plane; a thread = 4 consecutive columns. Per step of U output rows a thread issues
// U independent 16-byte loads (its own float4 of each new input row), takes the halo columns from the
// neighbouring lanes by shuffle (a warp's edge lanes load them), and keeps the last K-1 input rows'
// windows in registers, so each input row is read once per strip. Weights of the plane (K*K) live in
// registers. Stores are 16-, 8- or 4-byte streaming stores, as the output row's alignment allows
// (problem 84's rows of 510 floats: 8-byte).
//
// Device code only (its entry point is depthwise2d.cu); the CPU emulation tests run it too.
#include <cstdint>
#include <utility>

#include "cuda/depthwise/depthwise_index.hpp"
#include "cuda/depthwise/depthwise_weights.cuh"

namespace kbench::gpu::conv::depthwise {

template <int C>
__device__ __forceinline__ float component(const float4& v) {
  static_assert(C >= 0 && C < 4);
  if constexpr (C == 0) return v.x;
  if constexpr (C == 1) return v.y;
  if constexpr (C == 2) return v.z;
  return v.w;
}

__device__ __forceinline__ float4 shuffle4(const float4& v, int src_lane) {
  constexpr unsigned kAll = 0xffffffffu;
  return make_float4(__shfl_sync(kAll, v.x, src_lane), __shfl_sync(kAll, v.y, src_lane),
                     __shfl_sync(kAll, v.z, src_lane), __shfl_sync(kAll, v.w, src_lane));
}

// The float4 of input row `ih` at columns [col, col + 4), zero outside the input (whole float4s,
// since the input width is a multiple of 4).
__device__ __forceinline__ float4 load4(const float* __restrict__ plane, const Params& t, std::int64_t ih,
                                        std::int64_t col) {
  if (ih < 0 || ih >= t.in_h || col < 0 || col >= t.in_w) return make_float4(0.f, 0.f, 0.f, 0.f);
  return __ldg(reinterpret_cast<const float4*>(plane + ih * t.in_w + col));
}

template <int K, int PAD_LEFT>
struct Shape {
  static constexpr int kRowsPerStep = K == 3 ? 4 : 2;  // U: loads in flight per thread per step
  static constexpr int kSlots = K + 3;                 // window columns per thread
  static constexpr int kLo = lowest_neighbour(PAD_LEFT);
  static constexpr int kHi = highest_neighbour(K, PAD_LEFT);
  static constexpr int kNeighbours = kHi - kLo + 1;
  static constexpr int kRing = K - 1 + kRowsPerStep;  // input rows held in registers
};

// The float4 of lane + NB: shuffled (every lane takes part), or loaded by a lane whose neighbour lies
// in another warp.
template <int NB>
__device__ __forceinline__ float4 neighbour4(const float4& own, const float* __restrict__ plane, const Params& t,
                                             std::int64_t ih, std::int64_t col_base, int lane) {
  if constexpr (NB == 0) {
    return own;
  } else {
    float4 v = shuffle4(own, (lane + NB) & 31);
    if (lane + NB < 0 || lane + NB >= 32) v = load4(plane, t, ih, col_base + 4 * NB);
    return v;
  }
}

// Window (kSlots input columns) of one input row, assembled from this lane's float4 and its
// neighbours'. Index sequences keep every register index a compile-time constant (no local memory).
template <int K, int PAD_LEFT, int... NB, int... SLOT>
__device__ __forceinline__ void assemble(float (&win)[Shape<K, PAD_LEFT>::kSlots], const float4& own,
                                         const float* __restrict__ plane, const Params& t, std::int64_t ih,
                                         std::int64_t col_base, int lane, std::integer_sequence<int, NB...>,
                                         std::integer_sequence<int, SLOT...>) {
  using S = Shape<K, PAD_LEFT>;
  const float4 nbr[S::kNeighbours] = {neighbour4<NB + S::kLo>(own, plane, t, ih, col_base, lane)...};
  ((win[SLOT] = component<slot_source(PAD_LEFT, SLOT).component>(nbr[slot_source(PAD_LEFT, SLOT).neighbour - S::kLo])),
   ...);
}

template <int K, int PAD_LEFT>
__device__ __forceinline__ void assemble_window(float (&win)[Shape<K, PAD_LEFT>::kSlots], const float4& own,
                                                const float* __restrict__ plane, const Params& t, std::int64_t ih,
                                                std::int64_t col_base, int lane) {
  using S = Shape<K, PAD_LEFT>;
  assemble<K, PAD_LEFT>(win, own, plane, t, ih, col_base, lane, std::make_integer_sequence<int, S::kNeighbours>{},
                        std::make_integer_sequence<int, S::kSlots>{});
}

template <int K, int PAD_LEFT, StoreMode STORES>
__global__ void __launch_bounds__(kThreads)
    depthwise2d_kernel(const Params t, const float* __restrict__ x, const float* __restrict__ w,
                       const float* __restrict__ bias, float* __restrict__ y) {
  using S = Shape<K, PAD_LEFT>;
  constexpr int U = S::kRowsPerStep;
  const BlockTile b = block_tile(t, blockIdx.x);
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32;
  const std::int64_t col_base = thread_col_base(b, tid);
  const std::int64_t channel = b.plane % t.channels;
  const float* plane = x + b.plane * t.in_h * t.in_w;
  float* out_plane = y + b.plane * t.out_h * t.out_w;

  float wk[K][K];
  load_plane_weights<K>(w, channel, wk);
  const float b0 = plane_bias(bias, channel);
  const int width = store_width(t.out_w);
  // Width 2, realigned (rows of 2 mod 4 floats alternate between aligned and shifted): the lane's
  // stores for either kind are decided once here, not per row.
  const RowStores aligned_row = even_row_stores(false, lane, col_base, t.out_w);
  const RowStores shifted_row = even_row_stores(true, lane, col_base, t.out_w);
  const bool first_row_shifted = row_shifted(t, b.plane, b.row_begin);

  // ring[i]: window of input row (first output row of the step) - pad_top + i.
  float ring[S::kRing][S::kSlots];
#pragma unroll
  for (int i = 0; i < K - 1; ++i) {
    const std::int64_t ih = input_row(t, b.row_begin, i);
    assemble_window<K, PAD_LEFT>(ring[i], load4(plane, t, ih, col_base), plane, t, ih, col_base, lane);
  }

  for (std::int64_t oh = b.row_begin; oh < b.row_end; oh += U) {
    float4 fresh[U];
#pragma unroll
    for (int u = 0; u < U; ++u) fresh[u] = load4(plane, t, input_row(t, oh, K - 1 + u), col_base);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const std::int64_t ih = input_row(t, oh, K - 1 + u);
      assemble_window<K, PAD_LEFT>(ring[K - 1 + u], fresh[u], plane, t, ih, col_base, lane);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      float acc[kColsPerThread];
#pragma unroll
      for (int j = 0; j < kColsPerThread; ++j) {
        acc[j] = b0;
#pragma unroll
        for (int kh = 0; kh < K; ++kh)
#pragma unroll
          for (int kw = 0; kw < K; ++kw) acc[j] = fmaf(ring[u + kh][j + kw], wk[kh][kw], acc[j]);
      }
      const std::int64_t row = oh + u;
      if (row < b.row_end) {
        float* dst = out_plane + row * t.out_w + col_base;
        if (width == 4) {
          if (col_base + 3 < t.out_w)
            __stcs(reinterpret_cast<float4*>(dst), make_float4(acc[0], acc[1], acc[2], acc[3]));
        } else if (width == 2 && STORES == StoreMode::split) {
          if (col_base + 1 < t.out_w) __stcs(reinterpret_cast<float2*>(dst), make_float2(acc[0], acc[1]));
          if (col_base + 3 < t.out_w) __stcs(reinterpret_cast<float2*>(dst + 2), make_float2(acc[2], acc[3]));
        } else if (width == 2) {
          // 16-byte stores on rows 8 bytes off alignment too (even_row_stores); every lane shuffles.
          constexpr unsigned kAll = 0xffffffffu;
          const float next0 = __shfl_sync(kAll, acc[0], (lane + 1) & 31);
          const float next1 = __shfl_sync(kAll, acc[1], (lane + 1) & 31);
          const bool shifted = first_row_shifted != (((row - b.row_begin) & 1) != 0);
          const RowStores s = shifted ? shifted_row : aligned_row;
          if (s.own4) __stcs(reinterpret_cast<float4*>(dst), make_float4(acc[0], acc[1], acc[2], acc[3]));
          if (s.head2) __stcs(reinterpret_cast<float2*>(dst), make_float2(acc[0], acc[1]));
          if (s.next4) __stcs(reinterpret_cast<float4*>(dst + 2), make_float4(acc[2], acc[3], next0, next1));
          if (s.tail2) __stcs(reinterpret_cast<float2*>(dst + 2), make_float2(acc[2], acc[3]));
        } else {
#pragma unroll
          for (int j = 0; j < kColsPerThread; ++j)
            if (col_base + j < t.out_w) __stcs(dst + j, acc[j]);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < K - 1; ++i)
#pragma unroll
      for (int s = 0; s < S::kSlots; ++s) ring[i][s] = ring[i + U][s];
  }
}

}  // namespace kbench::gpu::conv::depthwise
