#pragma once
// A plane's filter and bias, read by both depthwise 2-D kernels into registers: every thread of a
// block reads the same K x K floats (broadcast loads through the read-only path). Device code only.
#include <cstdint>

namespace kbench::gpu::conv::depthwise {

template <int K>
__device__ __forceinline__ void load_plane_weights(const float* __restrict__ w, std::int64_t channel,
                                                   float (&wk)[K][K]) {
#pragma unroll
  for (int kh = 0; kh < K; ++kh)
#pragma unroll
    for (int kw = 0; kw < K; ++kw) wk[kh][kw] = __ldg(w + (channel * K + kh) * K + kw);
}

__device__ __forceinline__ float plane_bias(const float* __restrict__ bias, std::int64_t channel) {
  return bias != nullptr ? __ldg(bias + channel) : 0.0f;
}

}  // namespace kbench::gpu::conv::depthwise
