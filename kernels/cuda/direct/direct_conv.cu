// The generic direct kernel's launcher (direct_conv_kernel.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/direct/direct_conv_kernel.cuh"
#include "cuda/device_support.hpp"
#include "cuda/direct/direct_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv {

void launch_direct(const DirectDesc& d, const Operands& ops, cudaStream_t stream) {
  // Grid-stride: a bounded grid covers any output size.
  const std::int64_t blocks =
      std::min<std::int64_t>((d.total + kDirectThreads - 1) / kDirectThreads, std::int64_t{1} << 20);
  direct_conv_kernel<<<static_cast<unsigned>(blocks), kDirectThreads, 0, stream>>>(d, ops.x, ops.w, ops.bias, ops.y);
  KBENCH_CUDA_CHECK_LAUNCH();
}

bool kernel_image_loadable(std::string* reason) {
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, direct_conv_kernel);
  if (status == cudaSuccess) return true;
  (void)cudaGetLastError();  // not sticky: leave no error behind for later checks
  if (reason != nullptr) *reason = cudaGetErrorString(status);
  return false;
}

}  // namespace kbench::gpu::conv
