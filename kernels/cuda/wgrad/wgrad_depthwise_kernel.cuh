#pragma once
// The `wgrad_depthwise` kernel (wgrad_depthwise_index.hpp): block b takes channel b % channels and
// slice b / channels, stages each step's rows and gathered window in shared memory, and every thread
// accumulates its positions' products for all taps of the channel in registers. The block's sums
// leave through a fixed order (a warp butterfly, then the warps in order), so a run's result is
// bit-for-bit repeatable. Run on the CPU by tests/emu too. The slices' partials are summed by
// wgrad_sum_splits_kernel (wgrad_kernel.cuh), grad_bias by wgrad_bias_kernel.
#include <cmath>
#include <cstdint>

#include "cuda/wgrad/wgrad_depthwise_index.hpp"

namespace kbench::gpu::conv::wgrad_depthwise {

// `rows` and `gathered`: the two operands, NCHW. Writes taps(d) floats at partial_index(d, slice,
// channel, 0) of `out` (the workspace, or grad_weight itself unsliced). Dynamic shared memory:
// smem_bytes(d).
__global__ void __launch_bounds__(kThreads)
    wgrad_depthwise_kernel(WgradDepthwiseParams d, const float* __restrict__ rows, const float* __restrict__ gathered,
                           float* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* row_stage = reinterpret_cast<float*>(smem);       // [lines][kSegment]
  float* window = row_stage + row_stage_floats(d);          // [kernel depth][span_h][span_w]
  float* warp_sums = window + window_floats(d);             // [kWarps][kMaxTaps]
  int* tap_off = reinterpret_cast<int*>(warp_sums + kWarps * kMaxTaps);  // [kMaxTaps]
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t channel = std::int64_t{blockIdx.x} % channels(d);
  const std::int64_t slice = std::int64_t{blockIdx.x} / channels(d);
  const int n_taps = static_cast<int>(taps(d));
  const int staged = static_cast<int>(row_stage_floats(d));
  const std::int64_t window_size = window_floats(d);

  // Offsets fit an int: the window is within kMaxSmemBytes. Read after the first step's barrier.
  for (int tap = t; tap < kMaxTaps; tap += kThreads)
    tap_off[tap] = tap < n_taps ? static_cast<int>(tap_offset(d, tap)) : 0;

  float acc[kMaxTaps];
#pragma unroll
  for (int tap = 0; tap < kMaxTaps; ++tap) acc[tap] = 0.0f;
  const StepRange range = slice_range(d, slice);
  for (std::int64_t s = range.begin; s < range.end; ++s) {
    const Step step = step_at(d, s);
    // Consecutive threads read consecutive positions of a line (NCHW: contiguous), zero past its end.
    for (int e = t; e < staged; e += kThreads) {
      const std::int64_t pos = row_position(d, step, e);
      row_stage[e] = pos >= 0 ? rows[wgrad::row_offset(d.g, channel, step.n, 0, pos)] : 0.0f;
    }
    for (std::int64_t e = t; e < window_size; e += kThreads) {
      const std::int64_t at = window_source(d, step, e);
      window[e] = at >= 0 ? gathered[wgrad::gathered_offset(d.g, channel, step.n, 0, at)] : 0.0f;
    }
    __syncthreads();
    for (int e = t; e < staged; e += kThreads) {
      const float r = row_stage[e];
      const float* base = window + window_base(d, e);
      // Fully unrolled over the bound so acc stays in registers; the taps past n_taps are skipped.
#pragma unroll
      for (int tap = 0; tap < kMaxTaps; ++tap)
        if (tap < n_taps) acc[tap] = fmaf(r, base[tap_off[tap]], acc[tap]);
    }
    __syncthreads();  // the stages are rewritten next step
  }

  // Each tap's 256 sums: a butterfly within each warp (lane 0's order is fixed), then the warps in order.
  const int lane = t % 32, warp = t / 32;
#pragma unroll
  for (int tap = 0; tap < kMaxTaps; ++tap) {
    if (tap < n_taps) {  // the same for every thread: every lane takes part in the shuffles
      float v = acc[tap];
      for (int offset = 16; offset > 0; offset /= 2) v += __shfl_sync(0xffffffffu, v, lane ^ offset);
      if (lane == 0) warp_sums[warp * kMaxTaps + tap] = v;
    }
  }
  __syncthreads();
  if (t < n_taps) {
    float sum = 0.0f;
    for (int w = 0; w < kWarps; ++w) sum += warp_sums[w * kMaxTaps + t];
    out[partial_index(d, slice, channel, t)] = sum;
  }
}

}  // namespace kbench::gpu::conv::wgrad_depthwise
