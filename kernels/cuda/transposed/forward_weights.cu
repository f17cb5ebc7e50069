#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/transposed/forward_weights_kernel.cuh"
#include "cuda/transposed/forward_weights.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv {

namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    forward_weights_kernel(const ConvProblem forward, const float* __restrict__ transposed, float* __restrict__ out) {
  write_forward_weights(forward, transposed, out, static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
                        static_cast<std::int64_t>(gridDim.x) * blockDim.x);
}

}  // namespace

void launch_forward_weights(const ConvProblem& forward, const float* transposed, float* out, cudaStream_t stream) {
  const std::int64_t total = forward.weight_elements();
  const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>((total + kThreads - 1) / kThreads, 1, 65535));
  forward_weights_kernel<<<blocks, kThreads, 0, stream>>>(forward, transposed, out);
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv
