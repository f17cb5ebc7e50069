#pragma once
// Host entry point of the fp16/bf16 tensor-core implicit GEMM (plain C++). `d` from
// make_half_gemm_params for a problem in the implicit_gemm_half envelope; the dtype and the loads
// select a compiled instance.
#include <cuda_runtime_api.h>

#include "cuda/common/operands.hpp"
#include "cuda/half_gemm/half_gemm_index.hpp"

namespace kbench::gpu::conv::half_gemm {

void launch_half_gemm(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream);

// The same GEMM on wgmma.mma_async (half_wgmma.cu): compute capability 9.0 devices only.
void launch_half_gemm_wgmma(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::half_gemm
