#pragma once
// fp16 (IEEE binary16) and bf16 (bfloat16) as bit patterns, converted from and to fp32 with round to
// nearest even, written from the formats' definitions so host and device (and the CPU emulation of our
// kernels) round identically without cuda_fp16.h. NaN stays NaN (quiet), Inf stays Inf, values past the
// largest finite one round to Inf as IEEE says, and fp16's subnormals are rounded, not flushed.
// Tested exhaustively and against numpy's float16 (tests/unit/test_half.cpp).
#include <cstdint>
#include <cstring>

#include "core/host_device.hpp"
#include "core/types.hpp"

namespace kbench {

KBENCH_HD std::uint32_t float_bits(float value) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(value);
#else
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
#endif
}

KBENCH_HD float float_from_bits(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
#endif
}

// `value` >> `shift` rounded to nearest, ties to even; 1 <= shift <= 31.
KBENCH_HD std::uint32_t shift_right_rounded(std::uint32_t value, int shift) {
  const std::uint32_t kept = value >> shift;
  const std::uint32_t rest = value & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
}

KBENCH_HD std::uint16_t fp16_bits_from_float(float value) {
  const std::uint32_t bits = float_bits(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN, quiet
  if (magnitude >= 0x47800000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 2^16, Inf: Inf
  if (magnitude < 0x38800000u) {
    // Below fp16's smallest normal (2^-14): a subnormal, in units of 2^-24. Under 2^-25 is at most half a
    // unit: zero (exactly 2^-25 ties to the even zero too).
    if (magnitude < 0x33000000u) return sign;
    const std::uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    const int exponent = static_cast<int>(magnitude >> 23);  // 102..112
    return static_cast<std::uint16_t>(sign | shift_right_rounded(mantissa, 126 - exponent));
  }
  // Normal: rebias the exponent (127 -> 15) and round the mantissa from 23 to 10 bits; a carry out of
  // the mantissa moves to the next binade, and out of the largest one to Inf (0x7c00), as it should.
  return static_cast<std::uint16_t>(sign | shift_right_rounded(magnitude - 0x38000000u, 13));
}

KBENCH_HD float float_from_fp16_bits(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  const std::uint32_t exponent = (half >> 10) & 0x1fu;
  const std::uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa x 2^-24, exact in fp32
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return float_from_bits(sign | 0x7f800000u | (mantissa << 13));  // Inf, NaN
  return float_from_bits(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

KBENCH_HD std::uint16_t bf16_bits_from_float(float value) {
  const std::uint32_t bits = float_bits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);  // NaN, quiet
  // bf16 is fp32's upper half: same exponent range, so subnormals and overflow to Inf fall out of the
  // carry.
  return static_cast<std::uint16_t>(shift_right_rounded(bits, 16));
}

KBENCH_HD float float_from_bf16_bits(std::uint16_t half) {
  return float_from_bits(static_cast<std::uint32_t>(half) << 16);
}

// `value` rounded once to `dtype` and widened back: exactly what a tensor of that dtype holds.
KBENCH_HD float round_to_dtype(DType dtype, float value) {
  switch (dtype) {
    case DType::fp16: return float_from_fp16_bits(fp16_bits_from_float(value));
    case DType::bf16: return float_from_bf16_bits(bf16_bits_from_float(value));
    case DType::fp32: break;
  }
  return value;
}

}  // namespace kbench
