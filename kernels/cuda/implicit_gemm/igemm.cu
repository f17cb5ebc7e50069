// Dispatch by math, and the kernel that packs the weights into A's chunk order.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "cuda/implicit_gemm/igemm.hpp"
#include "cuda/implicit_gemm/igemm_split_reduce.cuh"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

namespace {

// One thread per packed element: the weight it copies (or a zero of the padding), rounded to TF32
// to nearest for the tf32 math (once per run, sparing the GEMM's inner loop). tf32x3 keeps fp32
// weights: the GEMM splits them in registers, which halves A's shared memory and L2 traffic.
__global__ void pack_a_kernel(const GemmConvParams d, const GemmTap* __restrict__ taps, const float* __restrict__ w,
                              GemmMath math, ALayout layout, float* __restrict__ a_packed) {
  const std::int64_t total = packed_a_size(d);
  for (std::int64_t idx = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    a_packed[idx] = packed_a_value(d, taps, w, idx, layout, math == GemmMath::tf32);
}

}  // namespace

void configure_gemm(TileKind tile, GemmMath math, KOrder order, std::size_t smem_bytes) {
  if (tile == TileKind::m96_wgmma) return configure_gemm_wgmma(math, smem_bytes);
  switch (math) {
    case GemmMath::ffma: configure_gemm_ffma(tile, order, smem_bytes); break;
    case GemmMath::tf32: configure_gemm_tf32(tile, order, smem_bytes); break;
    case GemmMath::tf32x3: configure_gemm_tf32x3(tile, order, smem_bytes); break;
  }
}

void launch_gemm(TileKind tile, GemmMath math, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                 const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream) {
  if (tile == TileKind::m96_wgmma) {
    if (zero.planes > 0 || d.fill_blocks > 0)
      throw std::logic_error("implicit GEMM: the wgmma kernel has no zero fill (forward convolutions only)");
    if (d.splits > 1) throw std::logic_error("implicit GEMM: the wgmma kernel does not split the reduction");
    return launch_gemm_wgmma(math, d, data, ops, smem_bytes, stream);
  }
  switch (math) {
    case GemmMath::ffma: launch_gemm_ffma(tile, d, data, ops, zero, smem_bytes, stream); break;
    case GemmMath::tf32: launch_gemm_tf32(tile, d, data, ops, zero, smem_bytes, stream); break;
    case GemmMath::tf32x3: launch_gemm_tf32x3(tile, d, data, ops, zero, smem_bytes, stream); break;
  }
}

void launch_split_reduce(const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops, cudaStream_t stream) {
  if (d.splits < 2 || data.partials == nullptr) throw std::logic_error("implicit GEMM: no split-K workspace to reduce");
  const std::int64_t total = d.groups * d.rows * d.columns;
  const auto blocks =
      static_cast<unsigned>(std::min<std::int64_t>((total + kSplitReduceThreads - 1) / kSplitReduceThreads, 4096));
  igemm_split_reduce_kernel<<<blocks, kSplitReduceThreads, 0, stream>>>(d, data.partials, ops.bias, ops.y);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void launch_pack_a(const GemmConvParams& d, GemmMath math, const GemmDeviceData& data, const float* w,
                   cudaStream_t stream) {
  constexpr int kThreads = 256;
  const std::int64_t total = packed_a_size(d);
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((total + kThreads - 1) / kThreads, 4096));
  pack_a_kernel<<<blocks, kThreads, 0, stream>>>(d, data.taps, w, math, a_layout_for(d, math), data.a_packed);
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv::igemm
