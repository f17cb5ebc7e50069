#pragma once
// The backward_weights launches (wgrad_kernel.cuh, wgrad_depthwise_kernel.cuh): plain C++ entry points.
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/wgrad/wgrad_depthwise_index.hpp"
#include "cuda/wgrad/wgrad_index.hpp"

namespace kbench::gpu::conv::wgrad {

// grad_weight (and grad_bias when d.bias_channels) from ops.x and ops.dy into ops.dw (ops.db);
// `workspace` holds workspace_elements(d) floats (null when 0).
void launch_wgrad(const WgradParams& d, const Operands& ops, float* workspace, cudaStream_t stream);

// The steps both families share: dw[i] = the `splits` partials at i (splits x `elements` floats in
// `partials`) summed in split order; grad_bias (d.bias_channels > 0) from ops.dy into ops.db.
void launch_sum_splits(std::int64_t elements, std::int64_t splits, const float* partials, float* dw,
                       cudaStream_t stream);
void launch_grad_bias(const WgradParams& d, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::wgrad

namespace kbench::gpu::conv::wgrad_depthwise {

// The `wgrad_depthwise` family's launches: grad_weight (and grad_bias) of a depthwise problem
// (fits(d)); `workspace` holds workspace_elements(d) floats (null when 0).
void launch_wgrad_depthwise(const WgradDepthwiseParams& d, const Operands& ops, float* workspace, cudaStream_t stream);

}  // namespace kbench::gpu::conv::wgrad_depthwise
