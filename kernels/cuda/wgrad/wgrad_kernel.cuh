#pragma once
// The backward_weights kernels (wgrad_index.hpp): the implicit GEMM in fp32 FFMA, one 64 x 64 tile of
// grad_weight per block and one K range (split) per blockIdx.z / groups; the sum of the splits'
// partials in split order; grad_bias per channel by a fixed tree. Every sum has one order whatever
// the schedule, so a run's result is bit-for-bit repeatable. Operands of any dtype and layout are
// widened to fp32 on load; outputs rounded once to the dtype. Run on the CPU by tests/emu too.
#include <cmath>
#include <cstdint>

#include "cuda/common/element.hpp"
#include "cuda/wgrad/wgrad_index.hpp"

namespace kbench::gpu::conv::wgrad {

// Partial (or, unsplit fp32 NCHW, whole) grad_weight of split s = blockIdx.z / groups into `out` at s x
// weight_elements (each split's partial flat [groups M, C, taps], fp32). `rows` and `gathered` are the
// two operands, in the problem's dtype and layout.
template <DType kType>
__global__ void __launch_bounds__(kThreads)
    wgrad_gemm_kernel(WgradParams d, const Storage<kType>* __restrict__ rows,
                      const Storage<kType>* __restrict__ gathered, float* __restrict__ out) {
  using E = Element<kType>;
  extern __shared__ __align__(16) unsigned char smem[];
  float* a_tile = reinterpret_cast<float*>(smem);  // [kTileK][kTileM]
  float* b_tile = a_tile + kTileK * kTileM;        // [kTileK][kTileN]
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t col0 = std::int64_t{blockIdx.x} * kTileN;
  const std::int64_t m0 = std::int64_t{blockIdx.y} * kTileM;
  const std::int64_t g = std::int64_t{blockIdx.z} % d.groups;
  const std::int64_t split = std::int64_t{blockIdx.z} / d.groups;
  const KRange range = split_range(d, split);
  const std::int64_t cols = columns(d);
  const int tm = (t / (kTileN / kThreadRows)) * kThreadRows;
  const int tn = (t % (kTileN / kThreadRows)) * kThreadRows;

  float acc[kThreadRows][kThreadRows] = {};
  for (std::int64_t kb = range.begin; kb < range.end; kb += kTileK) {
    // A: 16 consecutive threads read 16 consecutive k of one row (positions are contiguous in NCHW).
    for (int e = t; e < kTileM * kTileK; e += kThreads) {
      const int mm = e / kTileK, kk = e % kTileK;
      const std::int64_t k = kb + kk, m = m0 + mm;
      float v = 0.0f;
      if (k < range.end && m < d.m) v = E::widen(rows[row_offset(d, g, k / d.row_volume, m, k % d.row_volume)]);
      a_tile[kk * kTileM + mm] = v;
    }
    // B: consecutive threads take consecutive columns (channel, tap), gathered with zero padding.
    for (int e = t; e < kTileN * kTileK; e += kThreads) {
      const int kk = e / kTileN, cc = e % kTileN;
      const std::int64_t k = kb + kk, col = col0 + cc;
      float v = 0.0f;
      if (k < range.end && col < cols) {
        const std::int64_t at = gathered_position(d, k % d.row_volume, col % d.taps);
        if (at >= 0) v = E::widen(gathered[gathered_offset(d, g, k / d.row_volume, col / d.taps, at)]);
      }
      b_tile[kk * kTileN + cc] = v;
    }
    __syncthreads();
    for (int kk = 0; kk < kTileK; ++kk) {
      float a[kThreadRows], b[kThreadRows];
      for (int i = 0; i < kThreadRows; ++i) a[i] = a_tile[kk * kTileM + tm + i];
      for (int j = 0; j < kThreadRows; ++j) b[j] = b_tile[kk * kTileN + tn + j];
      for (int i = 0; i < kThreadRows; ++i)
        for (int j = 0; j < kThreadRows; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();  // the tiles are rewritten next chunk
  }
  for (int i = 0; i < kThreadRows; ++i)
    for (int j = 0; j < kThreadRows; ++j) {
      const std::int64_t m = m0 + tm + i, col = col0 + tn + j;
      if (m < d.m && col < cols) out[split * weight_elements(d) + weight_index(d, g, m, col)] = acc[i][j];
    }
}

// grad_weight[i] = the splits' partials at i summed in split order (partials: splits x `elements`).
__global__ void __launch_bounds__(kThreads)
    wgrad_sum_splits_kernel(std::int64_t elements, std::int64_t splits, const float* __restrict__ partials,
                            float* __restrict__ dw) {
  const std::int64_t step = std::int64_t{gridDim.x} * kThreads;
  for (std::int64_t i = std::int64_t{blockIdx.x} * kThreads + threadIdx.x; i < elements; i += step) {
    float sum = 0.0f;
    for (std::int64_t s = 0; s < splits; ++s) sum += partials[s * elements + i];
    dw[i] = sum;
  }
}

// grad_weight in its dtype and layout: element i (logical) the splits' fp32 partials at i summed in
// split order, rounded once, stored at weight_offset(d, i).
template <DType kType>
__global__ void __launch_bounds__(kThreads)
    wgrad_store_kernel(WgradParams d, const float* __restrict__ partials, Storage<kType>* __restrict__ dw) {
  const std::int64_t elements = weight_elements(d);
  const std::int64_t step = std::int64_t{gridDim.x} * kThreads;
  for (std::int64_t i = std::int64_t{blockIdx.x} * kThreads + threadIdx.x; i < elements; i += step) {
    float sum = 0.0f;
    for (std::int64_t s = 0; s < d.splits; ++s) sum += partials[s * elements + i];
    dw[weight_offset(d, i)] = Element<kType>::narrow(sum);
  }
}

// grad_bias[blockIdx.x]: grad_output of that channel summed over batch and positions; each thread a
// fixed strided share, then a fixed tree through shared memory (kThreads floats).
template <DType kType>
__global__ void __launch_bounds__(kThreads)
    wgrad_bias_kernel(WgradParams d, const Storage<kType>* __restrict__ dy, Storage<kType>* __restrict__ db) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* partial = reinterpret_cast<float*>(smem);
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t channel = blockIdx.x;
  float sum = 0.0f;
  for (std::int64_t e = t; e < d.batch * d.dy_volume; e += kThreads) {
    const std::int64_t n = e / d.dy_volume, pos = e % d.dy_volume;
    sum += Element<kType>::widen(dy[dy_offset(d, n, channel, pos)]);
  }
  partial[t] = sum;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0) db[channel] = Element<kType>::narrow(partial[0]);
}

}  // namespace kbench::gpu::conv::wgrad
