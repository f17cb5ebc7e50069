// Depthwise 2-D convolution: the entry points of depthwise2d_kernel.cuh's and depthwise2d_bulk_kernel.cuh's instances.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "cuda/depthwise/depthwise2d_bulk_kernel.cuh"
#include "cuda/depthwise/depthwise2d_kernel.cuh"
#include "cuda/depthwise/depthwise2d.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::depthwise {

void launch_depthwise2d(const Params& t, const Operands& ops, cudaStream_t stream) {
  with_depthwise_instance(t, [&](auto k, auto pad, auto stores) {
    depthwise2d_kernel<decltype(k)::value, decltype(pad)::value, decltype(stores)::value>
        <<<static_cast<unsigned>(t.blocks()), kThreads, 0, stream>>>(t, ops.x, ops.w, ops.bias, ops.y);
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

void configure_depthwise2d_bulk(const BulkParams& t) {
  with_bulk_instance(t, [&](auto k, auto stages) {
    KBENCH_CUDA_CHECK(cudaFuncSetAttribute(depthwise2d_bulk_kernel<decltype(k)::value, decltype(stages)::value>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(t.smem_bytes())));
  });
}

std::int64_t depthwise2d_bulk_resident_blocks(const BulkParams& t) {
  int device = 0, sms = 0, per_sm = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  with_bulk_instance(t, [&](auto k, auto stages) {
    KBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, depthwise2d_bulk_kernel<decltype(k)::value, decltype(stages)::value>, kBulkThreads,
        static_cast<std::size_t>(t.smem_bytes())));
  });
  if (per_sm < 1) throw std::runtime_error("depthwise2d bulk copies: no block of this instance fits on an SM");
  return static_cast<std::int64_t>(sms) * per_sm;
}

void launch_depthwise2d_bulk(const BulkParams& t, std::int64_t blocks, const Operands& ops, cudaStream_t stream) {
  const auto misaligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 != 0; };
  if (misaligned(ops.x) || misaligned(ops.y))
    throw std::invalid_argument("depthwise2d bulk copies: input and output must be 16-byte aligned");
  with_bulk_instance(t, [&](auto k, auto stages) {
    depthwise2d_bulk_kernel<decltype(k)::value, decltype(stages)::value>
        <<<static_cast<unsigned>(blocks), kBulkThreads, static_cast<std::size_t>(t.smem_bytes()), stream>>>(
            t, ops.x, ops.w, ops.bias, ops.y);
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv::depthwise
