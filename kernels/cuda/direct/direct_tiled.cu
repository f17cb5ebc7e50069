// Direct convolution through shared memory: the entry point over direct_tiled_kernel.cuh's instances.
#include <cuda_runtime.h>

#include "cuda/direct/direct.hpp"
#include "cuda/direct/direct_tiled_kernel.cuh"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::direct_tiled {

namespace {

template <DType kType>
void launch_typed(const DirectTiledParams& d, const Operands& ops, cudaStream_t stream) {
  using T = Storage<kType>;
  // At most kMaxSmemBytes (48 KB): within every device's default limit, no opt-in attribute.
  const auto smem_bytes = static_cast<std::size_t>(d.smem_bytes());
  with_tiled_instance(d, [&](auto k) {
    direct_tiled_kernel<decltype(k)::value, kType><<<static_cast<unsigned>(d.blocks()), kThreads, smem_bytes, stream>>>(
        d, Operands::as<T>(ops.x), Operands::as<T>(ops.w), Operands::as<T>(ops.bias), Operands::as<T>(ops.y));
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_direct_tiled(const DirectTiledParams& d, const Operands& ops, cudaStream_t stream) {
  switch (d.dtype) {
    case DType::fp32: return launch_typed<DType::fp32>(d, ops, stream);
    case DType::fp16: return launch_typed<DType::fp16>(d, ops, stream);
    case DType::bf16: return launch_typed<DType::bf16>(d, ops, stream);
  }
}

}  // namespace kbench::gpu::conv::direct_tiled
