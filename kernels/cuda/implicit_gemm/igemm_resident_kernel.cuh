#pragma once
// The implicit-GEMM kernel with A resident in shared memory (ASchedule::resident, Tile128Resident),
// for forward convolutions in the channel_blocks order whose A fits beside a B pipeline (problem 76:
// A is 128 x 192, 104 KB with the row padding).
//
// Why: with A streamed, every block of 256 columns reads all of A from L2 (problem 76: 43,690 blocks x
// 98 KB = 4.3 GB of L2 reads beside 14.3 GB of DRAM traffic, in a GEMM bound by memory). Here a
// persistent block copies its rows of A once and walks column tiles blockIdx.x, + gridDim.x, ...
// (igemm_resident_index.hpp). The cp.async pipeline carries only B and runs over the flattened
// (tile, chunk) sequence, so the next tile's first chunks load while this tile's last ones compute.
// The epilogue drains each warp's part of C through a few rows of its own in shared memory (no
// block barrier, no shared C tile), which leaves room for five pipeline stages; the accumulators
// are then cleared for the next tile. Tensor-core maths only (FFMA is bound by its FMAs, not by A).
//
// Same operands and math as igemm_kernel.cuh (its loaders, chunk math and accumulators), same
// launch signature; the k table, patch offsets and zero fill are unused (forward, channel_blocks).
#include <cstdint>

#include "cuda/implicit_gemm/igemm_kernel.cuh"
#include "cuda/implicit_gemm/igemm_resident_index.hpp"

namespace kbench::gpu::conv::igemm {

// C of one column tile (first column n0) to the output, through the warp's own staging rows in
// shared memory (no block barrier: each warp drains its 32 x 64 sub-tile alone, 8 rows at a time).
// An mma accumulator pair sits in 8 rows x 8 bytes; staged, a lane holds the same two columns of
// every row, so it locates them once per tile and each warp store writes 256 contiguous bytes of one
// output row. Lean on purpose: it runs with all accumulators live (storing from the fragments
// directly, with per-fragment index math, made the 3xTF32 instance spill 560 bytes).
template <class T, GemmMath MATH>
__device__ __forceinline__ void store_tile_staged(const GemmConvParams& d, const Accumulators<T, MATH>& acc,
                                                  std::int64_t group, std::int64_t m0, std::int64_t n0,
                                                  const float* __restrict__ bias, float* __restrict__ y, float* staging,
                                                  int warp, int lane) {
  constexpr int kS = T::kStagingStride;
  const int warp_row0 = warp_m_of<T>(warp) * T::kWarpRows;
  const int warp_col0 = warp_n_of<T>(warp) * 64;
  const int col = warp_col0 + 2 * lane;  // the lane's column pair when storing
  const bool col_ok = n0 + col < d.columns;
  const ColumnOrigin origin = column_origin(d, n0);
  const std::int64_t at0 = col_ok ? resident_column_index(d, origin, col) : 0;
  // V odd: the pair's second column may open the next image, and is stored on its own.
  const bool pairs = resident_pair_stores(d);
  const bool second_ok = !pairs && n0 + col + 1 < d.columns;
  const std::int64_t at1 = second_ok ? resident_column_index(d, origin, col + 1) : 0;
#pragma unroll
  for (int i = 0; i < T::kMFrag; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      __syncwarp();  // the previous rows are read out
#pragma unroll
      for (int nf = 0; nf < 8; ++nf) {
        const TileCoord at = mma_c_coord<T>(warp, lane, i, nf, 2 * h);  // elements 2h, 2h + 1
        *reinterpret_cast<float2*>(staging + (at.row - warp_row0 - 16 * i - 8 * h) * kS + at.col - warp_col0) =
            make_float2(acc.v[i][nf][2 * h], acc.v[i][nf][2 * h + 1]);
      }
      __syncwarp();
      // Rows m_first .. m_first + 7 of the group: consecutive output channels, V floats apart.
      const std::int64_t m_first = m0 + warp_row0 + 16 * i + 8 * h;
      const std::int64_t rows_left = d.rows - m_first;  // fewer than 8 (or none): padding rows of A
      if (!col_ok || rows_left <= 0) continue;
      const std::int64_t channel = group * d.rows + m_first;
      float* out = y + at0 + channel * d.out_volume;
      float* out_second = y + at1 + channel * d.out_volume;
#pragma unroll
      for (int r = 0; r < 8; ++r) {
        if (r >= rows_left) break;
        const float b = bias != nullptr ? __ldg(bias + channel + r) : 0.0f;
        const float2 v = *reinterpret_cast<const float2*>(staging + r * kS + 2 * lane);
        if (pairs) {
          __stcs(reinterpret_cast<float2*>(out), make_float2(v.x + b, v.y + b));
        } else {
          __stcs(out, v.x + b);
          if (second_ok) __stcs(out_second, v.y + b);
        }
        out += d.out_volume;
        out_second += d.out_volume;
      }
    }
}

template <class T, GemmMath MATH>
__global__ void __launch_bounds__(T::kThreads)
    igemm_resident_kernel(const GemmConvParams d, const float* __restrict__ x, const float* __restrict__ a_packed,
                          const float* __restrict__ bias, float* __restrict__ y,
                          const GemmTap* __restrict__ taps_global, const KEntry* __restrict__,
                          const std::int32_t* __restrict__, const ZeroFillParams) {
  static_assert(T::kResidentA && T::kStages >= 2);
  static_assert(MATH != GemmMath::ffma, "resident A: the tensor-core maths (FFMA is bound by its FMAs, not by A)");
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32, warp = tid / 32;
  const std::int64_t group = blockIdx.z;
  const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.y) * T::kBM;
  const int chunks = static_cast<int>(d.chunks);
  const int blocks = static_cast<int>(gridDim.x);
  const ResidentWalk walk = resident_walk(d, T::kBN, blockIdx.x, blocks);  // iterations < 2^31 (envelope)
  auto* s_taps = reinterpret_cast<GemmTap*>(smem);
  for (int i = tid; i < static_cast<int>(d.taps); i += T::kThreads) s_taps[i] = taps_global[i];
  constexpr int kAPlane = T::kBK * T::kAStride;
  constexpr int kStageFloats = T::kBK * T::kBStride;
  float* a_resident = reinterpret_cast<float*>(smem + smem_prefix_bytes(d));  // chunk j at j * kAPlane
  float* stages = a_resident + static_cast<std::int64_t>(chunks) * kAPlane;
  float* staging = stages + T::kStages * kStageFloats + warp * T::kStagingFloatsPerWarp;  // the warp's epilogue rows

  // All of the block's A: it joins the first cp.async group below, which the first wait completes.
  for (int chunk = 0; chunk < chunks; ++chunk)
    load_a_chunk<T, MATH>(d, group, chunk, m0, a_packed, a_resident + chunk * kAPlane, tid);
  __syncthreads();  // the tap list is in place

  // The B loader runs kStages - 1 iterations ahead of the math, on its own tile and chunk cursor.
  // Loop state is 32-bit (tiles < 2^31, iterations < 2^31): registers are what this kernel is short of.
  const int col = b_load_slot<T>(tid, 0).col;
  const int row_group = b_load_slot<T>(tid, 0).row;
  const std::int64_t channel_step = static_cast<std::int64_t>(T::kRowsPerPass) * d.in_volume;
  int load_tile = static_cast<int>(blockIdx.x);
  int load_chunk = 0;
  ColumnState cs = column_state(d, group, static_cast<std::int64_t>(load_tile) * T::kBN + col);
  ChunkCursor cursor;
  const auto load_next = [&](int stage) {
    if (load_chunk == chunks) {  // the loader moves on to its next tile
      load_chunk = 0;
      load_tile += blocks;
      cs = column_state(d, group, static_cast<std::int64_t>(load_tile) * T::kBN + col);
      cursor = ChunkCursor{};
    }
    load_b_channel_blocks<T>(d, s_taps, cursor, cs, x + cs.offset, channel_step, x, stages + stage * kStageFloats, tid,
                             col, row_group);
    ++load_chunk;
  };

  const int iterations = static_cast<int>(walk.iterations);
#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (s < iterations) load_next(s);
    cp_async_commit();
  }

  Accumulators<T, MATH> acc;
  zero_accumulators<T, MATH>(acc);
  int tile = static_cast<int>(blockIdx.x);
  int chunk = 0, stage = 0;
  for (int left = iterations; left > 0; --left) {
    cp_async_wait<T::kStages - 2>();
    __syncthreads();  // this iteration's B (and A) visible to all; everyone is done with the stage reloaded next
    // The stage reloaded is the one computed on in the previous iteration: (stage - 1) mod kStages.
    if (left > T::kStages - 1) load_next(stage == 0 ? T::kStages - 1 : stage - 1);
    cp_async_commit();
    chunk_math<T, MATH>(acc, a_resident + chunk * kAPlane, StagedB<T>{stages + stage * kStageFloats}, warp, lane);
    stage = stage + 1 == T::kStages ? 0 : stage + 1;
    if (++chunk == chunks) {
      store_tile_staged<T, MATH>(d, acc, group, m0, static_cast<std::int64_t>(tile) * T::kBN, bias, y, staging, warp,
                                 lane);
      zero_accumulators<T, MATH>(acc);
      chunk = 0;
      tile += blocks;
    }
  }
  cp_async_wait<0>();
}

}  // namespace kbench::gpu::conv::igemm
