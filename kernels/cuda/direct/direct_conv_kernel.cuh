#pragma once
// One thread per output element (grid-stride, 64-bit indices), gathering exactly the (input, tap)
// pairs that feed it: forward taps clipped to the input, transposed taps walked along the output's
// phase (tap_walk_index.hpp), so no tap is tested and rejected. fp32 FMA accumulation, bias fused.
// Adjacent threads own adjacent outputs along the last dimension, so input loads coalesce (stride
// permitting) and weight loads are mostly warp-uniform.
//
// Device code only (the launcher is direct_conv.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/direct/direct_desc.hpp"
#include "cuda/direct/tap_walk_index.hpp"
#include "problem/conv_geometry.hpp"

namespace kbench::gpu::conv {

inline constexpr int kDirectThreads = 256;

__global__ void __launch_bounds__(kDirectThreads)
    direct_conv_kernel(const DirectDesc d, const float* __restrict__ x, const float* __restrict__ w,
                       const float* __restrict__ bias, float* __restrict__ y) {
  const ConvProblem& p = d.p3;
  const std::int64_t cin_pg = p.in_channels_per_group();
  const std::int64_t cout_pg = p.out_channels_per_group();
  const std::int64_t in_volume = p.input_spatial_volume();
  const std::int64_t kvol = p.kernel_volume();
  const bool transposed = p.transposed();
  for (std::int64_t idx = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; idx < d.total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const geometry::TensorCoord o = geometry::unflatten(idx, p.out_channels, d.out, 3);
    const std::int64_t group = o.c / cout_pg;
    TapWalk walk[3];
    for (int dim = 0; dim < 3; ++dim)
      walk[dim] = transposed ? transposed_tap_walk(d.phase[dim], o.pos[dim]) : conv_tap_walk(p, dim, o.pos[dim]);
    const float* xg = x + (o.n * p.in_channels + group * cin_pg) * in_volume;
    // Weight of (input channel ci of the group, tap): w_base + ci * w_channel_step + tap.
    const std::int64_t w_base = transposed ? (group * cin_pg * cout_pg + o.c % cout_pg) * kvol : o.c * cin_pg * kvol;
    const std::int64_t w_channel_step = transposed ? cout_pg * kvol : kvol;
    float acc = 0.0f;
    for (std::int64_t j0 = 0; j0 < walk[0].count; ++j0) {
      const std::int64_t i0 = walk[0].i_first + j0 * walk[0].i_step;
      const std::int64_t k0 = walk[0].k_first + j0 * walk[0].k_step;
      for (std::int64_t j1 = 0; j1 < walk[1].count; ++j1) {
        const std::int64_t i1 = walk[1].i_first + j1 * walk[1].i_step;
        const std::int64_t k1 = walk[1].k_first + j1 * walk[1].k_step;
        for (std::int64_t j2 = 0; j2 < walk[2].count; ++j2) {
          const std::int64_t i2 = walk[2].i_first + j2 * walk[2].i_step;
          const std::int64_t k2 = walk[2].k_first + j2 * walk[2].k_step;
          const float* xp = xg + (i0 * p.input[1] + i1) * p.input[2] + i2;
          const float* wp = w + w_base + (k0 * p.kernel[1] + k1) * p.kernel[2] + k2;
          for (std::int64_t ci = 0; ci < cin_pg; ++ci) acc = fmaf(xp[ci * in_volume], wp[ci * w_channel_step], acc);
        }
      }
    }
    y[idx] = acc + (bias != nullptr ? bias[o.c] : 0.0f);
  }
}

}  // namespace kbench::gpu::conv
