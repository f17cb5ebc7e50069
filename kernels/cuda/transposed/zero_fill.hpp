#pragma once
// Stand-alone zero fill, for a transposed convolution none of whose phases has any work (every
// output is the bias). Otherwise the phase GEMM kernel does the zero fill itself.
#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/transposed/zero_fill_index.hpp"

namespace kbench::gpu::conv {

void launch_zero_fill(const ZeroFillParams& z, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv
