#pragma once
// Writes the untapped planes and rows of a transposed convolution's output (zero_fill_index.hpp) with
// 16-byte streaming stores. Called by every thread of a block, block-uniformly: by the phase GEMM
// kernel before its main loop (so these stores overlap the GEMM's loads and math), or by a
// stand-alone kernel when no phase has any work.
#include <cstdint>

#include "cuda/transposed/zero_fill_index.hpp"

namespace kbench::gpu::conv {

// Fills [p, p + count) with v using `workers` threads (this one is `worker`): a scalar head up to
// 16-byte alignment, float4 body, scalar tail.
__device__ __forceinline__ void fill_span(float* p, std::int64_t count, float v, int worker, int workers) {
  const auto misalign = static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(p) / sizeof(float)) % 4);
  std::int64_t head = (4 - misalign) % 4;
  if (head > count) head = count;
  if (worker < head) __stcs(p + worker, v);
  const std::int64_t vectors = (count - head) / 4;
  float4* body = reinterpret_cast<float4*>(p + head);
  const float4 v4 = make_float4(v, v, v, v);
  for (std::int64_t i = worker; i < vectors; i += workers) __stcs(body + i, v4);
  const std::int64_t done = head + 4 * vectors;
  if (worker < count - done) __stcs(p + done + worker, v);
}

// Planes first, first + step, ... of the zero-fill work.
__device__ __forceinline__ void zero_fill_planes(const ZeroFillParams& z, const float* __restrict__ bias,
                                                 float* __restrict__ y, std::int64_t first, std::int64_t step) {
  const int thread = static_cast<int>(threadIdx.x);
  const int threads = static_cast<int>(blockDim.x);
  const int lane = thread % 32, warp = thread / 32, warps = threads / 32;
  const std::int64_t row = z.out_extent[2];
  for (std::int64_t plane = first; plane < z.planes; plane += step) {
    const PlaneCoord pc = plane_coord(z, plane);
    const float v = bias != nullptr ? bias[pc.channel] : 0.0f;
    float* base = y + pc.offset;
    if (plane_untapped(z, pc.coord0)) {
      fill_span(base, z.out_extent[1] * row, v, thread, threads);
      continue;
    }
    // One warp per untapped row.
    for (std::int64_t ph = 0; ph < z.dim[1].stride; ++ph) {
      if (!row_phase_untapped(z, ph)) continue;
      const PhaseRange rows = rows_of_phase(z, ph);
      for (std::int64_t q = rows.q_begin + warp; q < rows.q_begin + rows.count; q += warps)
        fill_span(base + row_of_phase(z, ph, q) * row, row, v, lane, 32);
    }
  }
}

}  // namespace kbench::gpu::conv
