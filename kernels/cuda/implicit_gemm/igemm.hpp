#pragma once
// Host entry points of the implicit-GEMM kernels (plain C++: callable from .cpp files).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuda/common/operands.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/transposed/zero_fill_index.hpp"

namespace kbench::gpu::conv::igemm {

// Device-side data of one GEMM, owned by its KernelLaunch.
struct GemmDeviceData {
  const GemmTap* taps = nullptr;
  const KEntry* table = nullptr;        // k_table order only
  const std::int32_t* koffs = nullptr;  // input_patch order only: patch offset per reduction row
  float* a_packed = nullptr;            // packed A (rounded to TF32 for the tf32 math)
  float* partials = nullptr;            // split-K's workspace (igemm_split_index.hpp), where d.splits > 1
};

// Allows the kernel instance `smem_bytes` of dynamic shared memory. Once per KernelLaunch, before it enqueues.
void configure_gemm(TileKind tile, GemmMath math, KOrder order, std::size_t smem_bytes);

// Packs (and for the tf32 math rounds) the weights into A's chunk order.
void launch_pack_a(const GemmConvParams& d, GemmMath math, const GemmDeviceData& data, const float* w,
                   cudaStream_t stream);

// One GEMM; `zero` (planes > 0) adds the transposed convolution's untapped planes and rows to its work.
// Under split-K (d.splits > 1) it leaves partial tiles in data.partials: launch_split_reduce next.
void launch_gemm(TileKind tile, GemmMath math, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                 const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream);

// Split-K's reduction: sums the partial tiles in data.partials into the output, with the bias.
void launch_split_reduce(const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops, cudaStream_t stream);

// Per-math halves of the above, one translation unit each (igemm_ffma.cu, igemm_tf32.cu, igemm_tf32x3.cu),
// so the 30 kernel instances compile in parallel.
void configure_gemm_ffma(TileKind tile, KOrder order, std::size_t smem_bytes);
void configure_gemm_tf32(TileKind tile, KOrder order, std::size_t smem_bytes);
void configure_gemm_tf32x3(TileKind tile, KOrder order, std::size_t smem_bytes);
void launch_gemm_ffma(TileKind tile, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                      const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream);
void launch_gemm_tf32(TileKind tile, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                      const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream);
void launch_gemm_tf32x3(TileKind tile, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                        const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream);
// The wgmma tile's (igemm_wgmma.cu, sm_90a): forward convolutions only (no zero fill).
void configure_gemm_wgmma(GemmMath math, std::size_t smem_bytes);
void launch_gemm_wgmma(GemmMath math, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                       std::size_t smem_bytes, cudaStream_t stream);

}  // namespace kbench::gpu::conv::igemm
