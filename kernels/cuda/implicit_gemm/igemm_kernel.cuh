#pragma once
// The implicit-GEMM convolution kernel (forward convolutions and the phase GEMMs of transposed ones).
//
// Block (BM x BN tile of group blockIdx.z): a 3-stage cp.async pipeline over reduction chunks of 16 rows.
//   A chunk: BK x BM floats of packed A (igemm_pack.cu), 16-byte copies, no masks.
//   B chunk: BK x BN input elements gathered with 4-byte zero-filling copies; each thread owns one
//            column for the whole reduction and decoded it once (ColumnState), so per element it only
//            adds a row offset (channel_blocks) or a table delta (k_table) and checks the bounds.
// Math: FFMA (thread tile 4*MFRAG x 8, float4 fragment loads) or mma.sync m16n8k8 TF32 (1 or 3 products).
// Epilogue: accumulators -> shared C tile -> each thread stores its column (coalesced along the output
// row), bias added, and for transposed phases the owned untapped neighbours written with the bias.
// Output stores are streaming (st.global.cs): nothing reads them back in this kernel.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/implicit_gemm/igemm_config.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm_tile_index.hpp"
#include "cuda/transposed/zero_fill.cuh"

namespace kbench::gpu::conv::igemm {

// Which chunk the B loader fills next, kept incrementally (chunks are loaded in order).
struct ChunkCursor {
  int tap = 0;            // channel_blocks: tap of the chunk
  int channel_block = 0;  // channel_blocks: channel block of the chunk
};

template <class T, GemmMath MATH>
struct Accumulators;

template <class T>
struct Accumulators<T, GemmMath::ffma> {
  float v[4 * T::kMFrag][8];
};
template <class T>
struct Accumulators<T, GemmMath::tf32> {
  float v[T::kMFrag][8][4];
};
template <class T>
struct Accumulators<T, GemmMath::tf32x3> {
  float v[T::kMFrag][8][4];
};

// ---------------------------------------------------------------- math on one staged chunk
// Every shared-memory position below comes from igemm_tile_index.hpp (tested on the CPU); with the
// loop indices unrolled they fold to constants plus the lane's base.

template <class T>
__device__ __forceinline__ void chunk_ffma(Accumulators<T, GemmMath::ffma>& acc, const float* As, const float* Bs,
                                           int warp, int lane) {
#pragma unroll
  for (int k = 0; k < T::kBK; ++k) {
    float a[4 * T::kMFrag], b[8];
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i) {
      const TileCoord at = ffma_coord<T>(warp, lane, 4 * i, 0);  // rows at.row .. at.row + 3
      const float4 v = *reinterpret_cast<const float4*>(As + k * T::kAStride + at.row);
      a[4 * i + 0] = v.x;
      a[4 * i + 1] = v.y;
      a[4 * i + 2] = v.z;
      a[4 * i + 3] = v.w;
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const TileCoord at = ffma_coord<T>(warp, lane, 0, 4 * h);  // columns at.col .. at.col + 3
      const float4 v = *reinterpret_cast<const float4*>(Bs + k * T::kBStride + at.col);
      b[4 * h + 0] = v.x;
      b[4 * h + 1] = v.y;
      b[4 * h + 2] = v.z;
      b[4 * h + 3] = v.w;
    }
#pragma unroll
    for (int r = 0; r < 4 * T::kMFrag; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c) acc.v[r][c] = fmaf(a[r], b[c], acc.v[r][c]);
  }
}

// As holds TF32 bit patterns already (packed A is rounded on the device); B is rounded here.
// With MATH == tf32x3, As_small holds A's TF32 remainders and B is split likewise.
template <class T, GemmMath MATH>
__device__ __forceinline__ void chunk_mma(Accumulators<T, MATH>& acc, const float* As, const float* As_small,
                                          const float* Bs, int warp, int lane) {
#pragma unroll
  for (int ks = 0; ks < T::kBK; ks += 8) {
    std::uint32_t a[T::kMFrag][4];
    std::uint32_t a_small[T::kMFrag][4];
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const TileCoord at = mma_a_coord<T>(warp, lane, i, e, ks);  // {m, k}
        a[i][e] = __float_as_uint(As[at.col * T::kAStride + at.row]);
        if constexpr (MATH == GemmMath::tf32x3) a_small[i][e] = __float_as_uint(As_small[at.col * T::kAStride + at.row]);
      }
#pragma unroll
    for (int f = 0; f < 8; ++f) {
      const TileCoord at0 = mma_b_coord<T>(warp, lane, f, 0, ks);  // {k, n}
      const TileCoord at1 = mma_b_coord<T>(warp, lane, f, 1, ks);
      const float b0 = Bs[at0.row * T::kBStride + at0.col];
      const float b1 = Bs[at1.row * T::kBStride + at1.col];
      const std::uint32_t big[2] = {to_tf32(b0), to_tf32(b1)};
      if constexpr (MATH == GemmMath::tf32x3) {
        const std::uint32_t small[2] = {to_tf32(b0 - __uint_as_float(big[0])), to_tf32(b1 - __uint_as_float(big[1]))};
#pragma unroll
        for (int i = 0; i < T::kMFrag; ++i) {
          // Small products first, so they are not absorbed by the big one's rounding.
          mma_tf32(acc.v[i][f], a_small[i], big);
          mma_tf32(acc.v[i][f], a[i], small);
          mma_tf32(acc.v[i][f], a[i], big);
        }
      } else {
#pragma unroll
        for (int i = 0; i < T::kMFrag; ++i) mma_tf32(acc.v[i][f], a[i], big);
      }
    }
  }
}

// Accumulators into the shared C tile [BM][kCStride]: float4 (FFMA) or float2 (mma) stores.
template <class T, GemmMath MATH>
__device__ __forceinline__ void stage_accumulators(const Accumulators<T, MATH>& acc, float* Cs, int warp, int lane) {
  if constexpr (MATH == GemmMath::ffma) {
#pragma unroll
    for (int r = 0; r < 4 * T::kMFrag; ++r)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const TileCoord at = ffma_coord<T>(warp, lane, r, 4 * h);
        const float* v = &acc.v[r][4 * h];
        *reinterpret_cast<float4*>(Cs + at.row * T::kCStride + at.col) = make_float4(v[0], v[1], v[2], v[3]);
      }
  } else {
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i)
#pragma unroll
      for (int f = 0; f < 8; ++f)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const TileCoord at = mma_c_coord<T>(warp, lane, i, f, 2 * half);  // elements 2*half, 2*half + 1
          *reinterpret_cast<float2*>(Cs + at.row * T::kCStride + at.col) =
              make_float2(acc.v[i][f][2 * half], acc.v[i][f][2 * half + 1]);
        }
  }
}

// ---------------------------------------------------------------- the kernel

template <class T, GemmMath MATH, KOrder ORDER>
__global__ void __launch_bounds__(T::kThreads)
    igemm_conv_kernel(const GemmConvDesc d, const float* __restrict__ x, const float* __restrict__ a_big,
                      const float* __restrict__ a_small, const float* __restrict__ bias, float* __restrict__ y,
                      const GemmTap* __restrict__ taps_global, const KEntry* __restrict__ table_global,
                      const ZeroFillDesc zero) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32, warp = tid / 32;
  const std::int64_t group = blockIdx.z;
  const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.y) * T::kBM;
  const std::int64_t n0 = static_cast<std::int64_t>(blockIdx.x) * T::kBN;
  const int chunks = static_cast<int>(d.chunks);

  // Tap list or k table, once per block.
  auto* s_taps = reinterpret_cast<GemmTap*>(smem);
  auto* s_table = reinterpret_cast<KEntry*>(smem);
  if constexpr (ORDER == KOrder::channel_blocks) {
    for (int i = tid; i < static_cast<int>(d.taps); i += T::kThreads) s_taps[i] = taps_global[i];
  } else {
    for (int i = tid; i < chunks * T::kBK; i += T::kThreads) s_table[i] = table_global[i];
  }
  float* stages = reinterpret_cast<float*>(smem + smem_prefix_bytes(d));
  constexpr int kAPlane = T::kBK * T::kAStride;
  constexpr int kStageFloats = (MATH == GemmMath::tf32x3 ? 2 : 1) * kAPlane + T::kBK * T::kBStride;
  __syncthreads();

  const int col = b_load_slot<T>(tid, 0).col;
  const int row_group = b_load_slot<T>(tid, 0).row;
  const ColumnState cs = column_state(d, group, n0 + col);
  ChunkCursor cursor;

  const auto load_chunk = [&](int chunk, int stage) {
    float* As = stages + stage * kStageFloats;
    float* Bs = As + (MATH == GemmMath::tf32x3 ? 2 : 1) * kAPlane;
#pragma unroll
    for (int i = 0; i < T::kALoads; ++i) {
      const TileCoord at = a_load_slot<T>(tid, i);
      const std::int64_t src = packed_a_index(d, group, chunk, at.row, m0 + at.col);
      cp_async_16(As + at.row * T::kAStride + at.col, a_big + src);
      if constexpr (MATH == GemmMath::tf32x3) cp_async_16(As + kAPlane + at.row * T::kAStride + at.col, a_small + src);
    }
    if constexpr (ORDER == KOrder::channel_blocks) {
      const GemmTap tap = s_taps[cursor.tap];
      const bool inside = tap_in_input(d, cs, tap.offset);
      const int first_channel = cursor.channel_block * T::kBK + row_group;
      const std::int64_t src0 = cs.offset + spatial_offset(d, tap.offset) + first_channel * d.in_volume;
#pragma unroll
      for (int i = 0; i < T::kBLoads; ++i) {
        const int r = b_load_slot<T>(tid, i).row;  // channel first_channel + (r - row_group)
        const bool pred = inside && first_channel + (r - row_group) < d.cin_per_group;
        const float* src = pred ? x + src0 + static_cast<std::int64_t>(r - row_group) * d.in_volume : x;
        cp_async_4(Bs + r * T::kBStride + col, src, pred);
      }
      if (++cursor.tap == static_cast<int>(d.taps)) {
        cursor.tap = 0;
        ++cursor.channel_block;
      }
    } else {
#pragma unroll
      for (int i = 0; i < T::kBLoads; ++i) {
        const int r = b_load_slot<T>(tid, i).row;
        const KEntry e = s_table[chunk * T::kBK + r];
        const bool pred = e.valid != 0 && tap_in_input(d, cs, e.offset);
        cp_async_4(Bs + r * T::kBStride + col, pred ? x + cs.offset + e.delta : x, pred);
      }
    }
  };

#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (s < chunks) load_chunk(s, s);
    cp_async_commit();
  }

  // Untapped planes and rows of a transposed convolution: issued while the first chunks are in flight.
  if (zero.planes > 0) {
    const std::int64_t block = blockIdx.x + static_cast<std::int64_t>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
    const std::int64_t blocks = static_cast<std::int64_t>(gridDim.x) * gridDim.y * gridDim.z;
    zero_fill_planes(zero, bias, y, block, blocks);
  }

  Accumulators<T, MATH> acc;
  if constexpr (MATH == GemmMath::ffma) {
#pragma unroll
    for (int r = 0; r < 4 * T::kMFrag; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c) acc.v[r][c] = 0.0f;
  } else {
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i)
#pragma unroll
      for (int f = 0; f < 8; ++f)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc.v[i][f][e] = 0.0f;
  }

  for (int chunk = 0; chunk < chunks; ++chunk) {
    cp_async_wait<T::kStages - 2>();
    __syncthreads();  // chunk's copies visible to all; everyone is done with the stage reloaded next
    const int next = chunk + T::kStages - 1;
    if (next < chunks) load_chunk(next, next % T::kStages);
    cp_async_commit();
    const float* As = stages + (chunk % T::kStages) * kStageFloats;
    if constexpr (MATH == GemmMath::ffma) {
      chunk_ffma<T>(acc, As, As + kAPlane, warp, lane);
    } else {
      const float* Bs = As + (MATH == GemmMath::tf32x3 ? 2 : 1) * kAPlane;
      chunk_mma<T, MATH>(acc, As, As + kAPlane, Bs, warp, lane);
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // pipeline drained: its space becomes the C tile

  float* Cs = stages;
  stage_accumulators<T, MATH>(acc, Cs, warp, lane);
  __syncthreads();

  const OutputState os = output_state(d, group, n0 + col);
  if (!os.valid) return;
  const std::int64_t tail = tail_length(d, os.last_coord);
  const std::int64_t lead = os.first_in_row ? d.lead : 0;
  for (int r = row_group; r < T::kBM; r += T::kRowsPerPass) {
    const std::int64_t m = m0 + r;
    if (m >= d.rows) break;
    const float b = bias != nullptr ? bias[group * d.rows + m] : 0.0f;
    float* out = y + os.offset + m * d.out_volume;
    __stcs(out, Cs[r * T::kCStride + col] + b);
    for (std::int64_t t = 1; t <= tail; ++t) __stcs(out + t, b);
    for (std::int64_t p = 0; p < lead; ++p) __stcs(out - os.last_coord + p, b);
  }
}

}  // namespace kbench::gpu::conv::igemm
