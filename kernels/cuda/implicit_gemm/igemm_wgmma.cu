// The wgmma implicit-GEMM kernel's instances (tf32 and 3xTF32) and entry point. Built for sm_90a only
// (kernels/CMakeLists.txt: wgmma.mma_async exists on no other target), so the backend offers the
// wgmma variant on compute capability 9.0 devices only.
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "cuda/implicit_gemm/igemm.hpp"
#include "cuda/implicit_gemm/igemm_wgmma_kernel.cuh"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

namespace {

template <class F>
void with_wgmma_kernel(GemmMath math, F&& f) {
  switch (math) {
    case GemmMath::tf32: return f(&igemm_wgmma_kernel<GemmMath::tf32>);
    case GemmMath::tf32x3: return f(&igemm_wgmma_kernel<GemmMath::tf32x3>);
    case GemmMath::ffma: break;
  }
  throw std::logic_error("implicit GEMM: the wgmma kernel runs the tensor-core maths only");
}

}  // namespace

void configure_gemm_wgmma(GemmMath math, std::size_t smem_bytes) {
  with_wgmma_kernel(math, [&](auto kernel) {
    KBENCH_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
  });
}

void launch_gemm_wgmma(GemmMath math, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                       std::size_t smem_bytes, cudaStream_t stream) {
  if (d.order != KOrder::input_patch || d.mma != MmaKind::wgmma)
    throw std::logic_error("implicit GEMM: the wgmma kernel runs wgmma descriptors of the input_patch order only");
  const GemmGrid g = gemm_grid(d);
  const dim3 grid(static_cast<unsigned>(g.x), static_cast<unsigned>(g.y), static_cast<unsigned>(g.z));
  with_wgmma_kernel(math, [&](auto kernel) {
    kernel<<<grid, TileWgmma::kThreads, smem_bytes, stream>>>(d, ops.x, data.a_packed, ops.bias, ops.y, data.koffs);
    KBENCH_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace kbench::gpu::conv::igemm
