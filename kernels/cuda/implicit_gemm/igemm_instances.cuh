#pragma once
// Instantiates and launches the kernel for one math across the three tiles and three reduction orders.
// Included by exactly one .cu per math.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/implicit_gemm/igemm_kernel.cuh"
#include "cuda/implicit_gemm/igemm_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

template <class T, GemmMath MATH, KOrder ORDER>
struct Instance {
  static void configure(std::size_t smem_bytes) {
    KBENCH_CUDA_CHECK(cudaFuncSetAttribute(igemm_conv_kernel<T, MATH, ORDER>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
  }
  static void launch(const GemmConvDesc& d, const GemmDeviceData& data, const Operands& ops, const ZeroFillDesc& zero,
                     std::size_t smem_bytes, cudaStream_t stream) {
    const std::int64_t column_tiles = ORDER == KOrder::input_patch
                                          ? d.batch * d.patch.tiles_per_image  // tiles never straddle images
                                          : (d.columns + T::kBN - 1) / T::kBN;
    const dim3 grid(static_cast<unsigned>(column_tiles),
                    static_cast<unsigned>(d.rows_padded / T::kBM), static_cast<unsigned>(d.groups));
    igemm_conv_kernel<T, MATH, ORDER><<<grid, T::kThreads, smem_bytes, stream>>>(
        d, ops.x, data.a_big, data.a_small, ops.bias, ops.y, data.taps, data.table, data.koffs, zero);
    KBENCH_CUDA_CHECK_LAUNCH();
  }
};

// Calls F::template run<Instance<...>>() for the instance selected at run time.
template <GemmMath MATH, class F>
void with_instance(TileKind tile, KOrder order, F&& f) {
  const auto pick = [&](auto tile_tag) {
    using T = decltype(tile_tag);
    switch (order) {
      case KOrder::channel_blocks: f(Instance<T, MATH, KOrder::channel_blocks>{}); break;
      case KOrder::k_table: f(Instance<T, MATH, KOrder::k_table>{}); break;
      case KOrder::input_patch: f(Instance<T, MATH, KOrder::input_patch>{}); break;
    }
  };
  switch (tile) {
    case TileKind::m64: pick(Tile64{}); break;
    case TileKind::m96: pick(Tile96{}); break;
    case TileKind::m128: pick(Tile128{}); break;
  }
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
