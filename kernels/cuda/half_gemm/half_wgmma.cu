// The fp16/bf16 implicit GEMM's wgmma variant (half_wgmma_kernel.cuh): its four instances, chosen
// as the mma.sync entry point chooses them. Built for sm_90a only (kernels/CMakeLists.txt:
// wgmma.mma_async exists on no other target), so the backend offers it on compute capability 9.0
// devices only. Its 32 KB of shared memory is under the default 48 KB: nothing to configure.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/half_gemm/half_gemm.hpp"
#include "cuda/half_gemm/half_wgmma_kernel.cuh"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::half_gemm {

namespace {

template <DType kType, bool kVectorLoads>
void launch_wgmma_instance(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(d.row_tiles), static_cast<unsigned>(d.col_tiles),
                  static_cast<unsigned>(d.p3.groups));
  half_wgmma_kernel<kType, kVectorLoads><<<grid, kThreads, kWgmmaSmemBytes, stream>>>(
      d, Operands::as<std::uint16_t>(ops.x), Operands::as<std::uint16_t>(ops.w), Operands::as<std::uint16_t>(ops.bias),
      Operands::as<std::uint16_t>(ops.y));
  KBENCH_CUDA_CHECK_LAUNCH();
}

template <DType kType>
void launch_wgmma_loads(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream) {
  if (d.vector_loads) return launch_wgmma_instance<kType, true>(d, ops, stream);
  launch_wgmma_instance<kType, false>(d, ops, stream);
}

}  // namespace

void launch_half_gemm_wgmma(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream) {
  if (d.p3.dtype == DType::bf16) return launch_wgmma_loads<DType::bf16>(d, ops, stream);
  launch_wgmma_loads<DType::fp16>(d, ops, stream);
}

}  // namespace kbench::gpu::conv::half_gemm
