// Depthwise 2-D convolution: the launcher of depthwise2d_kernel.cuh's instances.
#include <cuda_runtime.h>

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

}  // namespace kbench::gpu::conv::depthwise
