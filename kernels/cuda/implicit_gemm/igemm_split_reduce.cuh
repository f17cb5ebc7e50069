#pragma once
// Split-K's second kernel (igemm_split_index.hpp): each output of the GEMM is the sum of its
// partial tiles, added in split order (the same sum on every run), plus the bias, stored as the
// GEMM's epilogue would store it (igemm_output_store.cuh). One thread per (group, row, column),
// columns fastest: the reads of each split's partial tile and the output stores are coalesced.
#include <cstdint>

#include "cuda/implicit_gemm/igemm_output_store.cuh"
#include "cuda/implicit_gemm/igemm_split_index.hpp"

namespace kbench::gpu::conv::igemm {

inline constexpr int kSplitReduceThreads = 256;

__global__ void __launch_bounds__(kSplitReduceThreads)
    igemm_split_reduce_kernel(const GemmConvParams d, const float* __restrict__ partials, const float* __restrict__ bias,
                              float* __restrict__ y) {
  const std::int64_t total = d.groups * d.rows * d.columns;
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < total; i += step) {
    const std::int64_t column = i % d.columns;
    const std::int64_t m = i / d.columns % d.rows;
    const std::int64_t group = i / (d.columns * d.rows);
    float sum = 0.0f;
    for (std::int64_t s = 0; s < d.splits; ++s) sum += partials[partial_index(d, s, group, m, column)];
    const float b = bias != nullptr ? bias[group * d.rows + m] : 0.0f;
    store_output(d, column_stores(d, group, column), m, sum, b, y);
  }
}

}  // namespace kbench::gpu::conv::igemm
