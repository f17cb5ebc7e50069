// The fp16/bf16 tensor-core implicit GEMM's entry point (half_gemm_kernel.cuh): four instances, the
// element type by the dtype and the loads by the layout and channel count.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/half_gemm/half_gemm_kernel.cuh"
#include "cuda/half_gemm/half_gemm.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::half_gemm {

namespace {

template <DType kType, bool kVectorLoads>
void launch_instance(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(d.row_tiles), static_cast<unsigned>(d.col_tiles),
                  static_cast<unsigned>(d.p3.groups));
  half_gemm_kernel<kType, kVectorLoads><<<grid, kThreads, kSmemBytes, stream>>>(
      d, Operands::as<std::uint16_t>(ops.x), Operands::as<std::uint16_t>(ops.w), Operands::as<std::uint16_t>(ops.bias),
      Operands::as<std::uint16_t>(ops.y));
  KBENCH_CUDA_CHECK_LAUNCH();
}

template <DType kType>
void launch_loads(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream) {
  if (d.vector_loads) return launch_instance<kType, true>(d, ops, stream);
  launch_instance<kType, false>(d, ops, stream);
}

}  // namespace

void launch_half_gemm(const HalfGemmParams& d, const Operands& ops, cudaStream_t stream) {
  if (d.p3.dtype == DType::bf16) return launch_loads<DType::bf16>(d, ops, stream);
  launch_loads<DType::fp16>(d, ops, stream);
}

}  // namespace kbench::gpu::conv::half_gemm
