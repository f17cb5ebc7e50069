#pragma once
// The backward_weights launches (wgrad_kernel.cuh): plain C++ entry point.
#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/wgrad/wgrad_index.hpp"

namespace kbench::gpu::conv::wgrad {

// grad_weight (and grad_bias when d.bias_channels) from ops.x and ops.dy into ops.dw (ops.db);
// `workspace` holds workspace_elements(d) floats (null when 0).
void launch_wgrad(const WgradDesc& d, const Operands& ops, float* workspace, cudaStream_t stream);

}  // namespace kbench::gpu::conv::wgrad
