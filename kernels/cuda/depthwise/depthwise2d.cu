// Depthwise 2-D convolution: the launchers of depthwise2d_kernel.cuh's and depthwise2d_bulk_kernel.cuh's instances.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "cuda/depthwise/depthwise2d_bulk_kernel.cuh"
#include "cuda/depthwise/depthwise2d_kernel.cuh"
#include "cuda/depthwise/depthwise_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::depthwise {

void launch_depthwise2d(const Tiling& t, const Operands& ops, cudaStream_t stream) {
  with_depthwise_instance(t, [&](auto k, auto pad, auto stores) {
    depthwise2d_kernel<decltype(k)::value, decltype(pad)::value, decltype(stores)::value>
        <<<static_cast<unsigned>(t.blocks()), kThreads, 0, stream>>>(t, ops.x, ops.w, ops.bias, ops.y);
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

void configure_depthwise2d_bulk(const BulkTiling& t) {
  with_bulk_instance(t, [&](auto k) {
    KBENCH_CUDA_CHECK(cudaFuncSetAttribute(depthwise2d_bulk_kernel<decltype(k)::value>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(t.smem_bytes())));
  });
}

void launch_depthwise2d_bulk(const BulkTiling& t, const Operands& ops, cudaStream_t stream) {
  const auto misaligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 != 0; };
  if (misaligned(ops.x) || misaligned(ops.y))
    throw std::invalid_argument("depthwise2d/bulk_copies: input and output must be 16-byte aligned");
  with_bulk_instance(t, [&](auto k) {
    depthwise2d_bulk_kernel<decltype(k)::value><<<static_cast<unsigned>(t.blocks()), kBulkThreads,
                                                  static_cast<std::size_t>(t.smem_bytes()), stream>>>(
        t, ops.x, ops.w, ops.bias, ops.y);
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv::depthwise
