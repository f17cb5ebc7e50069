#pragma once
// The fp16/bf16 implicit GEMM on Hopper's warpgroup product, wgmma.mma_async m64n64k16 (sm_90a):
// the GEMM, block tile, loads and epilogue of the mma.sync kernel (half_gemm_kernel.cuh), with both
// operands read by the tensor core from shared memory (half_wgmma_index.hpp has the layout), so no
// fragment passes through registers. Design in docs/kernels/implicit_gemm_half.md.
//
// One warpgroup computes the block's 64 x 64 tile: the mma.sync kernel's tile, so the grid, the
// envelope and the index arithmetic stay shared and a tile of few output channels wastes no more
// than it does there. Per chunk of 32 k: two m64n64k16 products in one commit group, four stages,
// two chunks loaded ahead, one group left in flight across the next chunk's barrier.
//
// Device code only (its entry point is half_wgmma.cu, built for sm_90a alone); the CPU emulation tests
// run it too.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/common/element.hpp"
#include "cuda/common/wgmma_desc.hpp"
#include "cuda/common/wgmma_ops.cuh"
#include "cuda/half_gemm/half_gemm_index.hpp"
#include "cuda/half_gemm/half_wgmma_index.hpp"
#include "cuda/half_gemm/ordering_bug.hpp"

namespace kbench::gpu::conv::half_gemm {

template <DType kType>
__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[kWgmmaAccumulators], std::uint64_t desc_a,
                                                std::uint64_t desc_b) {
  if constexpr (kType == DType::bf16) {
    wgmma_m64n64k16_bf16_ss(d, desc_a, desc_b);
  } else {
    wgmma_m64n64k16_f16_ss(d, desc_a, desc_b);
  }
}

// Chunk `chunk` of A (the thread's rows from `origin`) and B (columns from `col0`) into the stage's
// operand tiles `sa` / `sb`, in the core-matrix layout; zeros for padding taps, past K, M and N.
template <bool kVectorLoads>
__device__ __forceinline__ void load_wgmma_chunk(const HalfGemmParams& d, std::int64_t chunk, std::int64_t g,
                                                 const RowOrigin (&origin)[kVectorLoads ? kWgmmaVectorPieces : 1],
                                                 const bool (&row_ok)[kVectorLoads ? kWgmmaVectorPieces : 1],
                                                 std::int64_t col0, const std::uint16_t* __restrict__ x,
                                                 const std::uint16_t* __restrict__ w, std::uint16_t* sa,
                                                 std::uint16_t* sb) {
  const int t = threadIdx.x;
  const std::int64_t k0 = chunk * kTileK;
  if constexpr (kVectorLoads) {
    const int seg = wgmma_vector_segment(t);
    const std::int64_t k = k0 + seg * kVector;
    for (int r = 0; r < kWgmmaVectorPieces; ++r) {
      const int row = wgmma_vector_row(t, r);
      const int at = wgmma_tile_offset(row, seg * kVector);
      const std::int64_t xo = row_ok[r] ? input_offset(d, origin[r], g, k) : -1;
      cp_async_16_zfill(sa + at, xo >= 0 ? x + xo : x, xo >= 0);
      const std::int64_t j = col0 + row;
      const std::int64_t wo = j < d.cols ? weight_offset(d, g, j, k) : -1;
      cp_async_16_zfill(sb + at, wo >= 0 ? w + wo : w, wo >= 0);
    }
  } else {
    const int row = element_row(t);
    const std::int64_t j = col0 + row;
    for (int r = 0; r < kElementPieces; ++r) {
      const int col = element_col(t, r);
      const int at = wgmma_tile_offset(row, col);
      const std::int64_t xo = row_ok[0] ? input_offset(d, origin[0], g, k0 + col) : -1;
      sa[at] = xo >= 0 ? x[xo] : std::uint16_t{0};
      const std::int64_t wo = j < d.cols ? weight_offset(d, g, j, k0 + col) : -1;
      sb[at] = wo >= 0 ? w[wo] : std::uint16_t{0};
    }
  }
}

// The kernel's body, with an ordering mistake planted when kBug is not `none` (ordering_bug.hpp).
template <DType kType, bool kVectorLoads, OrderingBug kBug = OrderingBug::none>
__device__ __forceinline__ void half_wgmma_body(const HalfGemmParams& d, const std::uint16_t* __restrict__ x,
                                                const std::uint16_t* __restrict__ w,
                                                const std::uint16_t* __restrict__ bias,
                                                std::uint16_t* __restrict__ y) {
  using E = Element<kType>;
  extern __shared__ __align__(16) unsigned char smem[];
  auto* stages = reinterpret_cast<std::uint16_t*>(smem);
  const std::int64_t g = blockIdx.z;
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kTileM;
  const std::int64_t col0 = static_cast<std::int64_t>(blockIdx.y) * kTileN;
  const int t = threadIdx.x;

  constexpr int kRows = kVectorLoads ? kWgmmaVectorPieces : 1;
  RowOrigin origin[kRows];
  bool row_ok[kRows];
  decode_rows(d, row0, [&](int r) { return kVectorLoads ? wgmma_vector_row(t, r) : element_row(t); }, origin,
              row_ok);
  const auto stage_a = [&](std::int64_t chunk) { return stages + (chunk % kWgmmaStages) * kWgmmaStageHalves; };
  const auto stage_b = [&](std::int64_t chunk) { return stage_a(chunk) + kWgmmaOperandHalves; };
  constexpr int kAhead = kWgmmaStages - 2;  // chunks loaded ahead of the one multiplied

  // Prologue: the first kAhead chunks in flight, one commit group each (empty past the end, so the
  // wait below always counts the same number of groups).
  for (int s = 0; s < kAhead; ++s) {
    if (s < d.chunks) load_wgmma_chunk<kVectorLoads>(d, s, g, origin, row_ok, col0, x, w, stage_a(s), stage_b(s));
    cp_async_commit();
  }

  float acc[kWgmmaAccumulators];
#pragma unroll
  for (int i = 0; i < kWgmmaAccumulators; ++i) {
    acc[i] = 0.0f;
    wgmma_fence_operand(acc[i]);
  }
  const std::uint32_t stages_address = shared_address(stages);
  for (std::int64_t chunk = 0; chunk < d.chunks; ++chunk) {
    cp_async_wait<kBug == OrderingBug::products_before_landing ? kAhead : kAhead - 1>();
    // This thread's copies and stores, visible to the tensor core's reads.
    if constexpr (kBug != OrderingBug::no_proxy_fence) fence_proxy_async_shared();
    // Chunk `chunk` has landed for every thread; every thread has waited for chunk - 2's products,
    // whose stage is refilled next.
    if constexpr (kBug != OrderingBug::no_barrier_before_products) __syncthreads();
    const auto a_address = stages_address + static_cast<std::uint32_t>(chunk % kWgmmaStages * kWgmmaStageHalves * 2);
    const std::uint32_t b_address = a_address + kWgmmaOperandHalves * 2;
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < kTileK / 16; ++step)
      wgmma_m64n64k16<kType>(
          acc, wgmma_descriptor(a_address + wgmma_step_bytes(step), kWgmmaKStrideBytes, kWgmmaMnStrideBytes),
          wgmma_descriptor(b_address + wgmma_step_bytes(step), kWgmmaKStrideBytes, kWgmmaMnStrideBytes));
    wgmma_commit();

    // The loads overlap the products just issued; their stage held chunk - 2.
    const std::int64_t next = chunk + kAhead;
    if (next < d.chunks)
      load_wgmma_chunk<kVectorLoads>(d, next, g, origin, row_ok, col0, x, w, stage_a(next), stage_b(next));
    cp_async_commit();
    // chunk - 1's products done: its stage is free after the next barrier.
    wgmma_wait<kBug == OrderingBug::early_refill ? 2 : 1>();
  }
  wgmma_wait<0>();
#pragma unroll
  for (int i = 0; i < kWgmmaAccumulators; ++i) wgmma_fence_operand(acc[i]);
  cp_async_wait<0>();  // nothing may be in flight when the block exits (the last groups are empty)

  // Epilogue: bias, one rounding, stores through the output's strides. Accumulators 4 j + e: rows
  // wgmma_c_row (two per thread, e / 2), columns wgmma_c_col.
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const std::int64_t m = row0 + wgmma_c_row(t, 2 * half);
    if (m >= d.rows) continue;
    const RowOrigin r = row_origin(d, m);
#pragma unroll
    for (int i = 0; i < kWgmmaAccumulators; ++i) {
      if (i % 4 / 2 != half) continue;
      const std::int64_t j = col0 + wgmma_c_col(t, i);
      if (j >= d.cols) continue;
      const float b = bias != nullptr ? E::widen(bias[g * d.cout_pg + j]) : 0.0f;
      y[output_offset(d, r, g, j)] = E::narrow(acc[i] + b);
    }
  }
}

// Grid: (row tiles, column tiles, groups), as the mma.sync kernel; kThreads threads (one warpgroup);
// kWgmmaSmemBytes of dynamic shared memory.
template <DType kType, bool kVectorLoads>
__global__ void __launch_bounds__(kThreads)
    half_wgmma_kernel(const HalfGemmParams d, const std::uint16_t* __restrict__ x, const std::uint16_t* __restrict__ w,
                      const std::uint16_t* __restrict__ bias, std::uint16_t* __restrict__ y) {
  half_wgmma_body<kType, kVectorLoads>(d, x, w, bias, y);
}

}  // namespace kbench::gpu::conv::half_gemm
