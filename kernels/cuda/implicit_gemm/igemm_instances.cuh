#pragma once
// Instantiates and launches the kernel for one math: three tiles x two gathered orders, three tiles x
// input_patch, and the resident-A 128x256 tile with channel_blocks.
// Included by exactly one .cu per math.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "cuda/implicit_gemm/igemm_kernel.cuh"
#include "cuda/implicit_gemm/igemm_resident_kernel.cuh"
#include "cuda/implicit_gemm/igemm.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

template <class T, GemmMath MATH, KOrder ORDER>
struct Instance {
  static constexpr auto kernel() {
    if constexpr (T::kResidentA) {
      return &igemm_resident_kernel<T, MATH>;
    } else if constexpr (MATH == GemmMath::tf32 && T::kMinBlocksTf32 == 2) {
      return &igemm_conv_kernel_2_blocks<T, MATH, ORDER>;
    } else {
      return &igemm_conv_kernel<T, MATH, ORDER>;
    }
  }
  static void configure(std::size_t smem_bytes) {
    KBENCH_CUDA_CHECK(
        cudaFuncSetAttribute(kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
  }
  static void launch(const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops, const ZeroFillParams& zero,
                     std::size_t smem_bytes, cudaStream_t stream) {
    const GemmGrid g = gemm_grid(d);
    const dim3 grid(static_cast<unsigned>(g.x), static_cast<unsigned>(g.y), static_cast<unsigned>(g.z));
    if constexpr (T::kResidentA) {
      if (d.splits > 1) throw std::logic_error("implicit GEMM: resident A does not split the reduction");
      kernel()<<<grid, T::kThreads, smem_bytes, stream>>>(d, ops.x, data.a_packed, ops.bias, ops.y, data.taps,
                                                          data.table, data.koffs, zero);
    } else {
      if (d.splits > 1 && data.partials == nullptr)
        throw std::logic_error("implicit GEMM: a split descriptor needs its workspace");
      kernel()<<<grid, T::kThreads, smem_bytes, stream>>>(d, ops.x, data.a_packed, ops.bias, ops.y, data.taps,
                                                          data.table, data.koffs, zero, data.partials);
    }
    KBENCH_CUDA_CHECK_LAUNCH();
  }
};

// Calls f(Instance<...>{}) for the instance selected at run time (with_tile's table). The resident-A
// tile has no FFMA instance (the selection never picks it: FFMA is bound by its FMAs, not by A).
template <GemmMath MATH, class F>
void with_instance(TileKind tile, KOrder order, F&& f) {
  with_tile(tile, order, [&](auto tile_tag, auto order_tag) {
    using T = decltype(tile_tag);
    if constexpr (T::kResidentA && MATH == GemmMath::ffma) {
      throw std::logic_error("implicit GEMM: resident A has no FFMA instance");
    } else {
      f(Instance<T, MATH, decltype(order_tag)::value>{});
    }
  });
}

template <GemmMath MATH>
void configure_for(TileKind tile, KOrder order, std::size_t smem_bytes) {
  with_instance<MATH>(tile, order, [&](auto instance) { decltype(instance)::configure(smem_bytes); });
}

template <GemmMath MATH>
void launch_for(TileKind tile, const GemmConvParams& d, const GemmDeviceData& data, const Operands& ops,
                const ZeroFillParams& zero, std::size_t smem_bytes, cudaStream_t stream) {
  with_instance<MATH>(tile, d.order,
                      [&](auto instance) { decltype(instance)::launch(d, data, ops, zero, smem_bytes, stream); });
}

}  // namespace kbench::gpu::conv::igemm
