#pragma once
// The input_patch implicit GEMM on Hopper's warpgroup tensor-core product, wgmma.mma_async
// (sm_90a; igemm_wgmma_index.hpp has the thread layout). Why: with mma.sync every m16n8k8 product
// costs the issuing warp its fragment loads as well, and mma.sync reaches a fraction of Hopper's
// TF32 rate (about 55-65% in public FP16 measurements). Here one instruction per warp computes
// 16 x 96 x 8 products, the weights go from shared memory to the tensor core without passing through
// registers, and the only loads left in the loop are the four patch values per m64 product.
//
// Block: 96 rows (output channels) x 256 columns (output positions of one image), two warpgroups.
//   The input patch: copied into shared memory once per block, as in the mma.sync kernel (load_patch).
//   Weights: a 3-stage cp.async pipeline of chunks of 16 reduction rows, each already in the
//            wgmma_cores layout (packed by pack_a_kernel), copied as they lie; for 3xTF32 two planes
//            (TF32 big parts and remainders: the tensor core cannot split what it reads from memory).
//   Per k-step of 8 and m64 block of the warpgroup's columns: each thread loads its A fragment
//            (patch values, raw fp32 bits for tf32, split in registers for 3xTF32), and the
//            warpgroup issues one (tf32) or three (3xTF32) m64n96k8 products (wgmma_chunk has the
//            grouping and waits); none is in flight at the next barrier, after which the stage is refilled.
// Epilogue: accumulators -> shared C tile -> each thread stores its column (store_c_column).
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/wgmma_desc.hpp"
#include "cuda/common/wgmma_ops.cuh"
#include "cuda/implicit_gemm/igemm_kernel.cuh"
#include "cuda/implicit_gemm/igemm_wgmma_index.hpp"

namespace kbench::gpu::conv::igemm {

// The reduction rows' patch offsets a thread's fragments read at k-step `step`: rows tig and tig + 4
// (wgmma_a_row), loaded once for all m64 blocks (the wgmma asm statements clobber memory, so the
// compiler would reload them per block).
struct StepRows {
  int k[2];
  std::int32_t offset[2];
};

__device__ __forceinline__ StepRows step_rows(const std::int32_t* koff, int step, int lane) {
  StepRows r;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    r.k[half] = 8 * step + wgmma_a_row(lane, 2 * half);
    r.offset[half] = koff[r.k[half]];
  }
  return r;
}

// The thread's A fragment of one m64 block (patch values at the block's two columns, noff); for the
// reduction's last chunk, MASKED: rows at or past `valid_rows` read as zeros (their weights are zero
// too, but a zero times a non-finite input would not be).
template <bool MASKED>
__device__ __forceinline__ void load_wgmma_fragment(float (&v)[4], const char* patch_bytes, const StepRows& rows,
                                                    const std::int32_t (&noff)[2], int valid_rows) {
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    v[e] = *reinterpret_cast<const float*>(patch_bytes + (rows.offset[e / 2] + noff[e % 2]));
    if constexpr (MASKED) v[e] = rows.k[e / 2] < valid_rows ? v[e] : 0.0f;
  }
}

// One chunk's products, per k-step of 8 and m64 block of the warpgroup's columns. tf32: the block's
// fragment (raw fp32 bits) goes straight into the operand registers and its product is waited for
// before the next block's fragment reuses them: with 96 accumulators per thread, two blocks per SM
// leave no room for a second fragment in flight (ptxas would serialize the products anyway, and
// spill to make room), and the other warpgroups of the SM keep the tensor cores busy meanwhile.
// 3xTF32 (one block per SM, registers to spare): both blocks' split fragments, then the six
// products, small ones first so the big product's rounding does not absorb them, in one group.
// Each k-step ends with its products complete: the fragments are reused by the next k-step, and the
// stage must be free before the next barrier.
template <GemmMath MATH, bool MASKED>
__device__ __forceinline__ void wgmma_chunk(float (&acc)[TileWgmma::kMTiles][48], const char* patch_bytes,
                                            const std::int32_t* koff, const std::int32_t (&noff)[TileWgmma::kMTiles][2],
                                            int valid_rows, std::uint32_t stage_address, int lane) {
  using T = TileWgmma;
  constexpr std::uint32_t kMnStrideBytes = 128;  // one core matrix: 8 rows x 16 bytes
  constexpr std::uint32_t kWgmmaPlaneBytes = kWgmmaPlaneFloats * sizeof(float);
#pragma unroll
  for (int step = 0; step < T::kBK / 8; ++step) {
    // k-step `step` starts at k quad 2 step of the plane; the remainder plane follows the big one.
    const std::uint32_t step_address = stage_address + 2 * step * kWgmmaKQuadBytes;
    const std::uint64_t b_big = wgmma_descriptor(step_address, kWgmmaKQuadBytes, kMnStrideBytes);
    const StepRows rows = step_rows(koff, step, lane);
    if constexpr (MATH == GemmMath::tf32) {
#pragma unroll
      for (int t = 0; t < T::kMTiles; ++t) {
        float v[4];
        load_wgmma_fragment<MASKED>(v, patch_bytes, rows, noff[t], valid_rows);
        const std::uint32_t a[4] = {float_bits(v[0]), float_bits(v[1]), float_bits(v[2]), float_bits(v[3])};
        wgmma_fence();
        wgmma_m64n96k8_tf32(acc[t], a, b_big);
        wgmma_commit();
        wgmma_wait<0>();
      }
    } else {
      const std::uint64_t b_small = wgmma_descriptor(step_address + kWgmmaPlaneBytes, kWgmmaKQuadBytes, kMnStrideBytes);
      std::uint32_t big[T::kMTiles][4], small[T::kMTiles][4];
#pragma unroll
      for (int t = 0; t < T::kMTiles; ++t) {
        float v[4];
        load_wgmma_fragment<MASKED>(v, patch_bytes, rows, noff[t], valid_rows);
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const Tf32Split s = split_tf32(v[e]);
          big[t][e] = s.big;
          small[t][e] = s.small;
        }
      }
      wgmma_fence();
#pragma unroll
      for (int t = 0; t < T::kMTiles; ++t) {
        wgmma_m64n96k8_tf32(acc[t], small[t], b_big);
        wgmma_m64n96k8_tf32(acc[t], big[t], b_small);
        wgmma_m64n96k8_tf32(acc[t], big[t], b_big);
      }
      wgmma_commit();
      wgmma_wait<0>();
    }
  }
}

template <GemmMath MATH>
__device__ __forceinline__ void igemm_wgmma_body(const GemmConvParams& d, const float* __restrict__ x,
                                                 const float* __restrict__ a_packed, const float* __restrict__ bias,
                                                 float* __restrict__ y, const std::int32_t* __restrict__ koffs_global) {
  using T = TileWgmma;
  static_assert(MATH != GemmMath::ffma, "wgmma is a tensor-core math");
  constexpr int kStageFloats = (MATH == GemmMath::tf32x3 ? 2 : 1) * kWgmmaPlaneFloats;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32, warp = tid / 32;
  const int warpgroup = warp / 4, warp_in_group = warp % 4;
  const std::int64_t group = blockIdx.z;
  const std::int64_t row_tile = blockIdx.y;
  const std::int64_t m0 = row_tile * T::kBM;
  const int chunks = static_cast<int>(d.chunks);

  auto* s_koffs = reinterpret_cast<std::int32_t*>(smem);  // per reduction row, bytes
  constexpr auto kBytes = static_cast<std::int32_t>(sizeof(float));
  for (int i = tid; i < chunks * T::kBK; i += T::kThreads) s_koffs[i] = koffs_global[i] * kBytes;
  float* body = reinterpret_cast<float*>(smem + smem_prefix_bytes(d));  // patch, then stages; later the C tile
  float* patch = body;
  float* stages = body + d.patch.floats;
  const PatchTile tile = patch_tile(d, blockIdx.x, T::kBN);
  load_patch<T>(d, tile, group, x, patch, warp, lane);  // joins the first cp.async group below
  __syncthreads();                                      // the offsets are in place

  // This row tile's planes of chunk c lie at a_tile + c * chunk_stride, in the order the stage holds them.
  // (The chunk stride is below 2^31 floats: packed A of one chunk is 16 x rows_padded x planes.)
  const float* a_tile = a_packed + packed_a_wgmma_index(d, group, 0, row_tile);
  const auto chunk_stride = static_cast<std::uint32_t>(packed_a_wgmma_index(d, 0, 1, 0));
  const auto load_chunk = [&](int chunk, int stage) {
    const float* src = a_tile + static_cast<std::uint32_t>(chunk) * chunk_stride;
    float* dst = stages + stage * kStageFloats;
    constexpr int kVectors = kStageFloats / 4;
#pragma unroll
    for (int i = 0; i < (kVectors + T::kThreads - 1) / T::kThreads; ++i) {
      const int v = tid + i * T::kThreads;
      if (kVectors % T::kThreads == 0 || v < kVectors) cp_async_16(dst + 4 * v, src + 4 * v);
    }
  };
#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (s < chunks) load_chunk(s, s);
    cp_async_commit();
  }

  // The patch offsets (bytes) of the thread's four columns: [m64 product][half].
  std::int32_t noff[T::kMTiles][2];
#pragma unroll
  for (int t = 0; t < T::kMTiles; ++t)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      noff[t][h] = patch_column(d, tile, wgmma_column(warpgroup, warp_in_group, lane, t, h), T::kBN).noff * kBytes;

  float acc[T::kMTiles][48];
#pragma unroll
  for (int t = 0; t < T::kMTiles; ++t)
#pragma unroll
    for (int j = 0; j < 48; ++j) {
      acc[t][j] = 0.0f;
      wgmma_fence_operand(acc[t][j]);
    }

  const char* patch_bytes = reinterpret_cast<const char*>(patch);
  const std::uint32_t stages_address = shared_address(stages);
  const int last_rows = static_cast<int>(d.cin_per_group * d.taps - (d.chunks - 1) * T::kBK);

  for (int chunk = 0; chunk < chunks; ++chunk) {
    cp_async_wait<T::kStages - 2>();
    fence_proxy_async_shared();  // the weights this thread copied, visible to the tensor core's reads
    __syncthreads();  // the chunk's weights (and the patch) visible to all; every product of the stage refilled next is
                      // done
    const int next = chunk + T::kStages - 1;
    if (next < chunks) load_chunk(next, next % T::kStages);
    cp_async_commit();
    const std::int32_t* koff = s_koffs + chunk * T::kBK;
    const std::uint32_t stage_address =
        stages_address + static_cast<std::uint32_t>(chunk % T::kStages * kStageFloats * kBytes);
    if (chunk + 1 < chunks || last_rows == T::kBK) {
      wgmma_chunk<MATH, false>(acc, patch_bytes, koff, noff, T::kBK, stage_address, lane);
    } else {
      wgmma_chunk<MATH, true>(acc, patch_bytes, koff, noff, last_rows, stage_address, lane);
    }
  }
#pragma unroll
  for (int t = 0; t < T::kMTiles; ++t)
#pragma unroll
    for (int j = 0; j < 48; ++j) wgmma_fence_operand(acc[t][j]);
  cp_async_wait<0>();
  __syncthreads();  // pipeline drained: the patch and stages become the C tile

  float* Cs = body;
#pragma unroll
  for (int t = 0; t < T::kMTiles; ++t)
#pragma unroll
    for (int j = 0; j < 48; ++j)
      Cs[wgmma_acc_row(lane, j) * T::kCStride + wgmma_column(warpgroup, warp_in_group, lane, t, wgmma_acc_half(j))] =
          acc[t][j];
  __syncthreads();

  const int col = tid;  // kRowsPerPass == 1: every thread one column, all rows
  store_c_column<T>(d, group, patch_column(d, tile, col, T::kBN).n, m0, col, 0, Cs, bias, y);
}

// Two blocks per SM under the tf32 math (128 registers; one loads its patch while the other
// computes); 3xTF32 stages two planes and holds split fragments: one block.
template <GemmMath MATH>
__global__ void __launch_bounds__(TileWgmma::kThreads, MATH == GemmMath::tf32 ? TileWgmma::kMinBlocksTf32 : 1)
    igemm_wgmma_kernel(const GemmConvParams d, const float* __restrict__ x, const float* __restrict__ a_packed,
                       const float* __restrict__ bias, float* __restrict__ y,
                       const std::int32_t* __restrict__ koffs_global) {
  igemm_wgmma_body<MATH>(d, x, a_packed, bias, y, koffs_global);
}

}  // namespace kbench::gpu::conv::igemm
