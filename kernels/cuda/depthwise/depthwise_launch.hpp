#pragma once
// Host entry points of the depthwise kernels (plain C++).
#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/depthwise/depthwise_index.hpp"
#include "cuda/depthwise/depthwise_tiled_index.hpp"

namespace kbench::gpu::conv::depthwise {

// `t` must lie in the depthwise2d envelope (kernel_selection.hpp): the kernel size and left padding
// select one of six compiled instances.
void launch_depthwise2d(const Tiling& t, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::depthwise

namespace kbench::gpu::conv::depthwise_tiled {

// `d` from make_tiled_plan for a problem in the depthwise_tiled envelope.
void launch_depthwise_tiled(const TiledDesc& d, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::depthwise_tiled
