#pragma once
// The generic direct kernel: correct for every valid fp32 problem (1-D to 3-D, groups, stride,
// padding, dilation, transposed with output_padding, bias). Plain C++ entry point.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cuda/common/operands.hpp"
#include "cuda/direct/direct_desc.hpp"

namespace kbench::gpu::conv {

void launch_direct(const DirectDesc& d, const Operands& ops, cudaStream_t stream);

// Whether the current device can load this build's kernels (compiled for sm_90, with its PTX): asks
// the runtime about the direct kernel, which every problem can fall back to.
bool kernel_image_loadable(std::string* reason);

}  // namespace kbench::gpu::conv
