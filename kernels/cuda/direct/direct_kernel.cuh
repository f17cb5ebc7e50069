#pragma once
// One thread per output element (grid-stride, 64-bit indices), gathering exactly the (input, tap)
// pairs that feed it: forward taps clipped to the input, transposed taps walked along the output's
// phase (tap_walk_index.hpp), so no tap is tested and rejected. fp32 FMA accumulation of the widened
// elements, bias fused, the output rounded once to the element type (common/element.hpp).
// Threads take outputs in memory order: NCHW, adjacent threads own adjacent outputs along the last
// dimension, so input loads coalesce (stride permitting) and weight loads are mostly warp-uniform;
// NHWC, adjacent threads own adjacent channels of one position, so weight loads coalesce along the
// input channels of channels-last weights and input loads are warp-uniform.
//
// Device code only (its entry point is direct.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/common/element.hpp"
#include "cuda/direct/direct_params.hpp"
#include "cuda/direct/tap_walk_index.hpp"
#include "problem/conv_geometry.hpp"

namespace kbench::gpu::conv {

inline constexpr int kDirectThreads = 256;

template <DType kType, Layout kLayout>
__global__ void __launch_bounds__(kDirectThreads)
    direct_conv_kernel(const DirectParams d, const Storage<kType>* __restrict__ x, const Storage<kType>* __restrict__ w,
                       const Storage<kType>* __restrict__ bias, Storage<kType>* __restrict__ y) {
  using E = Element<kType>;
  constexpr bool kLast = kLayout == Layout::nhwc;
  const ConvProblem& p = d.p3;
  const std::int64_t cin_pg = p.in_channels_per_group();
  const std::int64_t cout_pg = p.out_channels_per_group();
  const std::int64_t in_volume = p.input_spatial_volume();
  const std::int64_t kvol = p.kernel_volume();
  const bool transposed = p.transposed();
  // Memory strides: of an input channel and an input position; of a weight's reduced channel and tap.
  const std::int64_t x_channel = kLast ? 1 : in_volume;
  const std::int64_t x_position = kLast ? p.in_channels : 1;
  const std::int64_t w_dim1 = transposed ? cout_pg : cin_pg;  // weight dim 1, innermost when channels last
  const std::int64_t w_tap = kLast ? w_dim1 : 1;
  for (std::int64_t idx = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; idx < d.total;
       idx += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    geometry::TensorCoord o;
    if constexpr (kLast) {  // idx = ((n * out0 + o0) * out1 + o1) * out2 + o2) * C_out + c
      std::int64_t rest = idx / p.out_channels;
      o.c = idx % p.out_channels;
      for (int dim = 2; dim >= 0; --dim) {
        o.pos[dim] = rest % d.out[dim];
        rest /= d.out[dim];
      }
      o.n = rest;
    } else {
      o = geometry::unflatten(idx, p.out_channels, d.out, 3);
    }
    const std::int64_t group = o.c / cout_pg;
    TapWalk walk[3];
    for (int dim = 0; dim < 3; ++dim)
      walk[dim] = transposed ? transposed_tap_walk(d.phase[dim], o.pos[dim]) : conv_tap_walk(p, dim, o.pos[dim]);
    const Storage<kType>* xg = x + o.n * p.in_channels * in_volume + group * cin_pg * x_channel;
    // Weight of (input channel ci of the group, tap): w_base + ci * w_channel + tap * w_tap. Logical
    // [dim0, dim1, taps]: conv dim0 = the output channel, transposed dim0 = the input channel.
    const std::int64_t w_row = transposed ? group * cin_pg : o.c;  // dim0 of ci = 0
    const std::int64_t w_col = transposed ? o.c % cout_pg : 0;     // dim1 of ci = 0
    const std::int64_t w_base = w_row * w_dim1 * kvol + w_col * (kLast ? 1 : kvol);
    const std::int64_t w_channel = transposed ? w_dim1 * kvol : (kLast ? 1 : kvol);
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
          const Storage<kType>* xp = xg + ((i0 * p.input[1] + i1) * p.input[2] + i2) * x_position;
          const Storage<kType>* wp = w + w_base + ((k0 * p.kernel[1] + k1) * p.kernel[2] + k2) * w_tap;
          for (std::int64_t ci = 0; ci < cin_pg; ++ci)
            acc = fmaf(E::widen(xp[ci * x_channel]), E::widen(wp[ci * w_channel]), acc);
        }
      }
    }
    y[idx] = E::narrow(acc + (bias != nullptr ? E::widen(bias[o.c]) : 0.0f));
  }
}

}  // namespace kbench::gpu::conv
