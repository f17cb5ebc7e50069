#pragma once
// Seeded inputs as a pure function of (seed, tensor, flat index), so the CPU and the GPU draw the
// very same values without copying gigabytes, and the verifier can regenerate any single element.
// Distributions follow PyTorch: the input like torch.rand (uniform [0, 1)), weight and bias like the
// default Conv init (uniform in +-1/sqrt(fan_in)).
#include <cstdint>

#include "core/half.hpp"
#include "core/host_device.hpp"
#include "core/types.hpp"

namespace kbench::data {

// The operands a pass reads (data/host_tensors.hpp says which); each role draws its own stream.
enum class TensorRole : std::uint32_t { input = 1, weight = 2, bias = 3, grad_output = 4 };

// SplitMix64's finaliser: a bijective 64-bit mix with good avalanche.
KBENCH_HD std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in [0, 1) with 24 random bits: exactly representable in fp32, identical on host and device.
KBENCH_HD float uniform01(std::uint64_t seed, TensorRole role, std::uint64_t index) {
  const std::uint64_t stream = mix64(seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(role));
  const std::uint64_t bits = mix64(stream ^ (index * 0xd1b54a32d192ed03ULL + 0x632be59bd9b4e019ULL));
  return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
}

// `bound` is ignored for the input, [0, 1) as torch.rand, and for grad_output, [-1, 1): a gradient has
// both signs, so sums over it cancel as real ones do. For weight and bias, 2u - 1 is exact in fp32, so the
// single rounding of the product is the same on every compiler and device (no FMA contraction possible).
KBENCH_HD float draw(std::uint64_t seed, TensorRole role, std::uint64_t index, float bound) {
  const float u = uniform01(seed, role, index);
  if (role == TensorRole::input) return u;
  if (role == TensorRole::grad_output) return 2.0f * u - 1.0f;
  return (2.0f * u - 1.0f) * bound;
}

// The value a tensor of `dtype` holds: draw() rounded once to it (round to nearest even). The input's
// [0, 1) may round up to 1 in fp16 and bf16, as torch.rand(...).half() does.
KBENCH_HD float draw_as(DType dtype, std::uint64_t seed, TensorRole role, std::uint64_t index, float bound) {
  return round_to_dtype(dtype, draw(seed, role, index, bound));
}

}  // namespace kbench::data
