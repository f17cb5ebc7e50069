#pragma once
// Writes the forward weights of a stride-1 transposed convolution (forward_equivalent.hpp): each
// thread copies the elements first, first + step, ... of the forward layout from where the map says
// they lie in the transposed one. The reads are scattered over one small tensor (L2-resident); the
// writes coalesce.
#include <cstdint>

#include "cuda/transposed/forward_equivalent.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

__device__ __forceinline__ void write_forward_weights(const ConvProblem& forward, const float* __restrict__ transposed,
                                                      float* __restrict__ out, std::int64_t first, std::int64_t step) {
  const std::int64_t total = forward.weight_elements();
  for (std::int64_t i = first; i < total; i += step) out[i] = __ldg(transposed + transposed_weight_source(forward, i));
}

}  // namespace kbench::gpu::conv
