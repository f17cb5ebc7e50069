#pragma once
// The fp16/bf16 implicit GEMM on tensor cores: mma.sync.m16n8k16 with fp32 accumulation, the output
// rounded once to the element type. GEMM and index arithmetic in half_gemm_index.hpp; design in
// docs/kernels/implicit_gemm_half.md.
//
// A block computes a 64 x 64 tile of C (output positions x output channels of one group) over the
// whole reduction, 32 k at a time through 3 shared-memory stages: with vector loads (NHWC, C_in/g a
// multiple of 8) each thread issues two 16-byte cp.async for A and two for B per chunk, zero-filled
// for padding taps and past K; otherwise it gathers 16 + 16 elements with plain loads into the stage.
// Four warps of 32 x 32 each read their fragments from shared memory as 32-bit pairs (the padded rows
// make every fragment load conflict-free) and issue 2 x 4 products per k16 step. The epilogue adds
// the bias, rounds, and stores each accumulator where the output's strides put it.
//
// Device code only (its entry point is half_gemm.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/common/element.hpp"
#include "cuda/half_gemm/half_gemm_index.hpp"
#include "cuda/half_gemm/ordering_bug.hpp"

namespace kbench::gpu::conv::half_gemm {

template <DType kType>
__device__ __forceinline__ void mma_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  if constexpr (kType == DType::bf16) {
    mma_bf16_16816(d, a, b);
  } else {
    mma_f16_16816(d, a, b);
  }
}

// Two adjacent halves of a shared row as one register (the lower column in the low half).
__device__ __forceinline__ std::uint32_t pair_at(const std::uint16_t* row, int col) {
  return *reinterpret_cast<const std::uint32_t*>(row + col);
}

// Chunk `chunk` of A (rows from `origin`) and B (columns from `col0`) into stage `sa` / `sb`.
template <bool kVectorLoads>
__device__ __forceinline__ void load_chunk(const HalfGemmParams& d, std::int64_t chunk, std::int64_t g,
                                           const RowOrigin (&origin)[kVectorLoads ? kVectorPieces : 1],
                                           const bool (&row_ok)[kVectorLoads ? kVectorPieces : 1], std::int64_t col0,
                                           const std::uint16_t* __restrict__ x, const std::uint16_t* __restrict__ w,
                                           std::uint16_t* sa, std::uint16_t* sb) {
  const int t = threadIdx.x;
  const std::int64_t k0 = chunk * kTileK;
  if constexpr (kVectorLoads) {
    for (int r = 0; r < kVectorPieces; ++r) {
      const int row = vector_row(t, r);
      const int seg = vector_segment(t);
      const std::int64_t k = k0 + seg * kVector;
      const std::int64_t xo = row_ok[r] ? input_offset(d, origin[r], g, k) : -1;
      cp_async_16_zfill(sa + row * kRowHalves + seg * kVector, xo >= 0 ? x + xo : x, xo >= 0);
      const std::int64_t j = col0 + row;
      const std::int64_t wo = j < d.cols ? weight_offset(d, g, j, k) : -1;
      cp_async_16_zfill(sb + row * kRowHalves + seg * kVector, wo >= 0 ? w + wo : w, wo >= 0);
    }
  } else {
    const int row = element_row(t);
    const std::int64_t j = col0 + row;
    for (int r = 0; r < kElementPieces; ++r) {
      const int col = element_col(t, r);
      const std::int64_t xo = row_ok[0] ? input_offset(d, origin[0], g, k0 + col) : -1;
      sa[row * kRowHalves + col] = xo >= 0 ? x[xo] : std::uint16_t{0};
      const std::int64_t wo = j < d.cols ? weight_offset(d, g, j, k0 + col) : -1;
      sb[row * kRowHalves + col] = wo >= 0 ? w[wo] : std::uint16_t{0};
    }
  }
}

// The kernel's body, with an ordering mistake planted when kBug is not `none` (ordering_bug.hpp).
template <DType kType, bool kVectorLoads, OrderingBug kBug = OrderingBug::none>
__device__ __forceinline__ void half_gemm_body(const HalfGemmParams& d, const std::uint16_t* __restrict__ x,
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

  constexpr int kRows = kVectorLoads ? kVectorPieces : 1;
  RowOrigin origin[kRows];
  bool row_ok[kRows];
  decode_rows(d, row0, [&](int r) { return kVectorLoads ? vector_row(t, r) : element_row(t); }, origin, row_ok);
  const auto stage_a = [&](std::int64_t chunk) { return stages + (chunk % kStages) * kStageHalves; };
  const auto stage_b = [&](std::int64_t chunk) { return stage_a(chunk) + kTileM * kRowHalves; };

  // Prologue: the first kStages - 1 chunks in flight, one commit group each (empty past the end, so
  // the wait below always counts the same number of groups).
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < d.chunks) load_chunk<kVectorLoads>(d, s, g, origin, row_ok, col0, x, w, stage_a(s), stage_b(s));
    cp_async_commit();
  }

  const int lane = t % 32;
  const int warp = t / 32;
  const int warp_row = (warp % 2) * kWarpM;
  const int warp_col = (warp / 2) * kWarpN;
  float acc[2][4][4] = {};  // registers only while every loop indexing it is unrolled
  for (std::int64_t chunk = 0; chunk < d.chunks; ++chunk) {
    cp_async_wait<kStages - 2>();
    const std::int64_t next = chunk + kStages - 1;
    const auto refill = [&] {
      if (next < d.chunks)
        load_chunk<kVectorLoads>(d, next, g, origin, row_ok, col0, x, w, stage_a(next), stage_b(next));
      cp_async_commit();
    };
    if constexpr (kBug == OrderingBug::refill_before_barrier) refill();
    // Chunk `chunk` has landed for every thread, and every warp is done with the stage refilled next
    // (read at chunk - 1).
    __syncthreads();
    if constexpr (kBug != OrderingBug::refill_before_barrier) refill();

    const std::uint16_t* sa = stage_a(chunk);
    const std::uint16_t* sb = stage_b(chunk);
#pragma unroll
    for (int ks = 0; ks < kTileK; ks += 16) {
      std::uint32_t a[2][4];
      std::uint32_t b[4][2];
#pragma unroll
      for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int reg = 0; reg < 4; ++reg) {
          const FragCoord c = a_fragment(lane, 2 * reg);  // and its column + 1 in the high half
          a[mi][reg] = pair_at(sa + (warp_row + 16 * mi + c.row) * kRowHalves + ks, c.col);
        }
#pragma unroll
      for (int ni = 0; ni < 4; ++ni)
#pragma unroll
        for (int reg = 0; reg < 2; ++reg) {
          // B is stored [n][k] (column major, as .col reads it): fragment (k, n) at row n, column k.
          const FragCoord c = b_fragment(lane, 2 * reg);
          b[ni][reg] = pair_at(sb + (warp_col + 8 * ni + c.col) * kRowHalves + ks, c.row);
        }
#pragma unroll
      for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) mma_16816<kType>(acc[mi][ni], a[mi], b[ni]);
    }
  }
  cp_async_wait<0>();  // nothing may be in flight when the block exits (the last groups are empty)

// Epilogue: bias, one rounding, stores through the output's strides.
#pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::int64_t m = row0 + warp_row + 16 * mi + c_fragment(lane, 2 * half).row;
      if (m >= d.rows) continue;
      const RowOrigin r = row_origin(d, m);
#pragma unroll
      for (int ni = 0; ni < 4; ++ni)
#pragma unroll
        for (int e = 2 * half; e < 2 * half + 2; ++e) {
          const std::int64_t j = col0 + warp_col + 8 * ni + c_fragment(lane, e).col;
          if (j >= d.cols) continue;
          const float b = bias != nullptr ? E::widen(bias[g * d.cout_pg + j]) : 0.0f;
          y[output_offset(d, r, g, j)] = E::narrow(acc[mi][ni][e] + b);
        }
    }
}

// Grid: (row tiles, column tiles, groups); kThreads threads; kSmemBytes of dynamic shared memory.
template <DType kType, bool kVectorLoads>
__global__ void __launch_bounds__(kThreads)
    half_gemm_kernel(const HalfGemmParams d, const std::uint16_t* __restrict__ x, const std::uint16_t* __restrict__ w,
                     const std::uint16_t* __restrict__ bias, std::uint16_t* __restrict__ y) {
  half_gemm_body<kType, kVectorLoads>(d, x, w, bias, y);
}

}  // namespace kbench::gpu::conv::half_gemm
