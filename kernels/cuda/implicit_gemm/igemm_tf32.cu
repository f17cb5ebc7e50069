// Implicit-GEMM kernel instances with GemmMath::tf32 (igemm_instances.cuh: ten tile x order instances).
#include "cuda/implicit_gemm/igemm_instances.cuh"

namespace kbench::gpu::conv::igemm {

void configure_gemm_tf32(TileKind tile, KOrder order, std::size_t smem_bytes) {
  configure_for<GemmMath::tf32>(tile, order, smem_bytes);
}

void launch_gemm_tf32(TileKind tile, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                      const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream) {
  launch_for<GemmMath::tf32>(tile, d, data, ops, zero, smem_bytes, stream);
}

}  // namespace kbench::gpu::conv::igemm
