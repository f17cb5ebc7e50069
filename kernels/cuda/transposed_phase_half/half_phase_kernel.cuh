#pragma once
// The two small kernels around the phase GEMMs of a half-precision transposed convolution
// (half_phase_index.hpp): one packs a phase's taps of the weights into the GEMM's B, the other writes
// the bias (or zero) to every output on an untapped phase. Grid-stride loops: the packed weights are
// the weights' size once, and the fill writes each output it owns once.
//
// Device code only (its entry point is half_phase.cu); the CPU emulation tests run it too.
#include <cstdint>

#include "cuda/transposed_phase_half/half_phase_index.hpp"

namespace kbench::gpu::conv::half_gemm {

inline constexpr int kPhaseThreads = 256;

// packed[e] = w[packed_weight_source(g, e)] for e < packed_elements(g).
__global__ void __launch_bounds__(kPhaseThreads)
    pack_phase_weights_kernel(const HalfPhaseGemm g, const std::uint16_t* __restrict__ w,
                              std::uint16_t* __restrict__ packed) {
  const std::int64_t total = packed_elements(g);
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total; e += step)
    packed[e] = w[packed_weight_source(g, e)];
}

// y = bias[channel] (or +0) for every output on an untapped phase: a block per line (grid-stride),
// its threads along the line; with kVectors (channels last, C_out a multiple of 8, the output 16-byte
// aligned) 8 channels of one position per 16-byte store, else one element per store.
template <bool kVectors>
__global__ void __launch_bounds__(kPhaseThreads)
    untapped_bias_fill_kernel(const BiasFillParams f, const std::uint16_t* __restrict__ bias,
                              std::uint16_t* __restrict__ y) {
  constexpr int kWidth = kVectors ? kFillVector : 1;
  const std::int64_t units = f.line_length / kWidth;
  for (std::int64_t line = blockIdx.x; line < f.lines; line += gridDim.x) {
    const FillLine l = fill_line(f, line);
    std::uint16_t* out = y + line * f.line_length;
    for (std::int64_t u = threadIdx.x; u < units; u += blockDim.x) {
      const FillTarget t = fill_target(f, l, u * kWidth);
      if (!t.write) continue;
      if constexpr (kVectors) {
        // float4 as the 16-byte carrier of 8 halves; streaming stores, as nothing reads the output back.
        float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (bias != nullptr) v = __ldg(reinterpret_cast<const float4*>(bias + t.channel));
        __stcs(reinterpret_cast<float4*>(out) + u, v);
      } else {
        out[u] = bias != nullptr ? bias[t.channel] : std::uint16_t{0};
      }
    }
  }
}

}  // namespace kbench::gpu::conv::half_gemm
