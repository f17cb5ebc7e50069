#pragma once
// Host entry point of the depthwise 2-D kernel (plain C++). `t` must lie in the depthwise2d envelope
// (kernel_selection.hpp): the kernel size and left padding select one of six compiled instances.
#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/depthwise/depthwise_index.hpp"

namespace kbench::gpu::conv::depthwise {

void launch_depthwise2d(const Tiling& t, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::depthwise
