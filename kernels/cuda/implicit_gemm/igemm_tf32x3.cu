// Implicit-GEMM kernel instances with GemmMath::tf32x3 (igemm_instances.cuh: ten tile x order instances).
#include "cuda/implicit_gemm/igemm_instances.cuh"

namespace kbench::gpu::conv::igemm {

void configure_gemm_tf32x3(TileKind tile, KOrder order, std::size_t smem_bytes) {
  configure_for<GemmMath::tf32x3>(tile, order, smem_bytes);
}

void launch_gemm_tf32x3(TileKind tile, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                        const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream) {
  launch_for<GemmMath::tf32x3>(tile, d, data, ops, zero, smem_bytes, stream);
}

}  // namespace kbench::gpu::conv::igemm
