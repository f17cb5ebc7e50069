#pragma once
// Instantiates and launches the kernel for one math: three tiles x two gathered orders, three tiles x input_patch.
// Included by exactly one .cu per math.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "cuda/implicit_gemm/igemm_kernel.cuh"
#include "cuda/implicit_gemm/igemm_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

template <class T, GemmMath MATH, KOrder ORDER>
struct Instance {
  static constexpr auto kernel() {
    if constexpr (MATH == GemmMath::tf32 && T::kMinBlocksTf32 == 2) {
      return &igemm_conv_kernel_2_blocks<T, MATH, ORDER>;
    } else {
      return &igemm_conv_kernel<T, MATH, ORDER>;
    }
  }
  static void configure(std::size_t smem_bytes) {
    KBENCH_CUDA_CHECK(cudaFuncSetAttribute(kernel(),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
  }
  static void launch(const GemmConvDesc& d, const GemmDeviceData& data, const Operands& ops, const ZeroFillDesc& zero,
                     std::size_t smem_bytes, cudaStream_t stream) {
    const std::int64_t column_tiles = ORDER == KOrder::input_patch
                                          ? d.batch * d.patch.tiles_per_image  // tiles never straddle images
                                          : (d.columns + T::kBN - 1) / T::kBN;
    const dim3 grid(static_cast<unsigned>(column_tiles),
                    static_cast<unsigned>(d.rows_padded / T::kBM), static_cast<unsigned>(d.groups));
    kernel()<<<grid, T::kThreads, smem_bytes, stream>>>(
        d, ops.x, data.a_packed, ops.bias, ops.y, data.taps, data.table, data.koffs, zero);
    KBENCH_CUDA_CHECK_LAUNCH();
  }
};

// Calls f(Instance<...>{}) for the instance selected at run time: the narrow tiles for the gathered
// orders, the 256-column ones for input_patch, as choose_tile pairs them; 9 per math.
template <GemmMath MATH, class F>
void with_instance(TileKind tile, KOrder order, F&& f) {
  if (order == KOrder::input_patch) {
    switch (tile) {
      case TileKind::m64_wide: return f(Instance<Tile64W, MATH, KOrder::input_patch>{});
      case TileKind::m96_wide: return f(Instance<Tile96W, MATH, KOrder::input_patch>{});
      case TileKind::m128: return f(Instance<Tile128, MATH, KOrder::input_patch>{});
      default: break;
    }
    throw std::logic_error("implicit GEMM: input_patch has no instance for this tile");
  }
  const auto pick = [&](auto tile_tag) {
    using T = decltype(tile_tag);
    if (order == KOrder::channel_blocks) return f(Instance<T, MATH, KOrder::channel_blocks>{});
    return f(Instance<T, MATH, KOrder::k_table>{});
  };
  switch (tile) {
    case TileKind::m64: return pick(Tile64{});
    case TileKind::m96: return pick(Tile96{});
    case TileKind::m128: return pick(Tile128{});
    default: break;
  }
  throw std::logic_error("implicit GEMM: a gathered order has no instance for a wide tile");
}

template <GemmMath MATH>
void configure_for(TileKind tile, KOrder order, std::size_t smem_bytes) {
  with_instance<MATH>(tile, order, [&](auto instance) { decltype(instance)::configure(smem_bytes); });
}

template <GemmMath MATH>
void launch_for(TileKind tile, const GemmConvDesc& d, const GemmDeviceData& data, const Operands& ops,
                const ZeroFillDesc& zero, std::size_t smem_bytes, cudaStream_t stream) {
  with_instance<MATH>(tile, d.order, [&](auto instance) {
    decltype(instance)::launch(d, data, ops, zero, smem_bytes, stream);
  });
}

}  // namespace kbench::gpu::conv::igemm
