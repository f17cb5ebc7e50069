#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/transposed/zero_fill_kernel.cuh"
#include "cuda/transposed/zero_fill.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv {

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    zero_fill_kernel(const ZeroFillParams z, const float* __restrict__ bias, float* __restrict__ y) {
  zero_fill_planes(z, bias, y, blockIdx.x, gridDim.x);
}

}  // namespace

void launch_zero_fill(const ZeroFillParams& z, const Operands& ops, cudaStream_t stream) {
  if (z.planes == 0) return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(z.planes, 65535));
  zero_fill_kernel<<<blocks, kThreads, 0, stream>>>(z, ops.bias, ops.y);
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv
