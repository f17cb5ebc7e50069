#pragma once
// The generic direct kernel: correct for every valid fp32 problem (1-D to 3-D, groups, stride,
// padding, dilation, transposed with output_padding, bias). Plain C++ entry point.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cuda/common/operands.hpp"
#include "cuda/direct/direct_params.hpp"
#include "cuda/direct/direct_tiled_params.hpp"

namespace kbench::gpu::conv {

void launch_direct(const DirectParams& d, const Operands& ops, cudaStream_t stream);

// kernel_image_loadable (declared in cuda/device_support.hpp) is defined beside the direct kernel.

}  // namespace kbench::gpu::conv

namespace kbench::gpu::conv::direct_tiled {

// The shared-memory direct convolution; `d` from make_params for a problem in its envelope.
void launch_direct_tiled(const DirectTiledParams& d, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::direct_tiled
