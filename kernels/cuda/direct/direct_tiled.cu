// Direct convolution through shared memory: the launcher of direct_tiled_kernel.cuh's instances.
#include <cuda_runtime.h>

#include "cuda/direct/direct_launch.hpp"
#include "cuda/direct/direct_tiled_kernel.cuh"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::direct_tiled {

void launch_direct_tiled(const TiledDesc& d, const Operands& ops, cudaStream_t stream) {
  // At most kMaxSmemBytes (48 KB): within every device's default limit, no opt-in attribute.
  const auto smem_bytes = static_cast<std::size_t>(d.smem_bytes());
  with_tiled_instance(d, [&](auto k) {
    direct_tiled_kernel<decltype(k)::value>
        <<<static_cast<unsigned>(d.blocks()), kThreads, smem_bytes, stream>>>(d, ops.x, ops.w, ops.bias, ops.y);
  });
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv::direct_tiled
