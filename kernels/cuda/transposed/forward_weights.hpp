#pragma once
// The launch that writes a stride-1 transposed convolution's forward weights (forward_weights_kernel.cuh).
#include <cuda_runtime_api.h>

#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

// `forward`: forward_equivalent's problem; `transposed` [C_in, C_out/g, k...] -> `out` [C_out, C_in/g, k...].
void launch_forward_weights(const ConvProblem& forward, const float* transposed, float* out, cudaStream_t stream);

}  // namespace kbench::gpu::conv
