#pragma once
// Host entry point of the channels-last depthwise kernel (plain C++). `t` from make_params for a
// problem in the depthwise_nhwc envelope; the dtype selects a compiled instance.
#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/depthwise_nhwc/depthwise_nhwc_index.hpp"

namespace kbench::gpu::conv::depthwise_nhwc {

// x and y must be 16-byte aligned (cudaMalloc's are); throws std::invalid_argument otherwise.
void launch_depthwise_nhwc(const Params& t, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::depthwise_nhwc
