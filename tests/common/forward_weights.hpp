#pragma once
// The forward weights of a stride-1 transposed convolution, on the CPU, as the device's weights
// kernel writes them (transposed/forward_weights_kernel.cuh): for the tests that run forward kernels, or
// the reference, on them.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/transposed/forward_equivalent.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu_tests {

// `forward`: forward_equivalent's problem; `transposed` [C_in, C_out/g, k...] -> [C_out, C_in/g, k...].
inline std::vector<float> forward_weights(const ConvProblem& forward, const std::vector<float>& transposed) {
  std::vector<float> out(static_cast<std::size_t>(forward.weight_elements()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t source = gpu::conv::transposed_weight_source(forward, static_cast<std::int64_t>(i));
    out[i] = transposed[static_cast<std::size_t>(source)];
  }
  return out;
}

}  // namespace kbench::gpu_tests
