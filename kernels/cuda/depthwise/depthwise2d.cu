// Depthwise 2-D convolution: the launcher of depthwise2d_kernel.cuh's instances.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "cuda/depthwise/depthwise2d_kernel.cuh"
#include "cuda/depthwise/depthwise_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::depthwise {

namespace {

template <int K, int PAD_LEFT>
void launch(const Tiling& t, const Operands& ops, cudaStream_t stream) {
  depthwise2d_kernel<K, PAD_LEFT>
      <<<static_cast<unsigned>(t.blocks()), kThreads, 0, stream>>>(t, ops.x, ops.w, ops.bias, ops.y);
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_depthwise2d(const Tiling& t, const Operands& ops, cudaStream_t stream) {
  const bool centred = t.pad_left != 0;
  switch (t.kernel) {
    case 3: centred ? launch<3, 1>(t, ops, stream) : launch<3, 0>(t, ops, stream); break;
    case 5: centred ? launch<5, 2>(t, ops, stream) : launch<5, 0>(t, ops, stream); break;
    case 7: centred ? launch<7, 3>(t, ops, stream) : launch<7, 0>(t, ops, stream); break;
    default: throw std::invalid_argument("depthwise2d: kernel size outside the envelope");
  }
}

}  // namespace kbench::gpu::conv::depthwise
