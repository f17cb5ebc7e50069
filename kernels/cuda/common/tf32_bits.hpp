#pragma once
// How the tensor-core kernels turn fp32 values into TF32 operands, host/device so the CPU tests can
// check the error bounds bit for bit.
//
// A TF32 operand is an fp32 bit pattern of which mma.sync reads the top 19 bits (sign, 8 exponent
// bits, 10 mantissa bits): passing raw fp32 bits truncates them, for free. That is what the plain
// TF32 kernels do with the input operand (B), as cuBLAS/CUTLASS fast-TF32 GEMMs do: relative error
// below 2^-10 per element, far inside the tf32 tolerance (1e-2). The weights (A) are rounded to
// nearest once per run when they are packed, where it costs nothing.
//
// 3xTF32 splits both operands, in registers, v = big + small: big = v truncated to TF32 (a bit
// mask, exact), small = v - big (exact in fp32: the 13 dropped mantissa bits), itself rounded
// half-up to TF32 by adding half of its last kept unit before the hardware truncates. Per product
// the dropped terms are below 2^-21 |v| (small's rounding) and 2^-20 |a||b| (small x small):
// fp32-level, against a 1e-4 tolerance (test_cuda_tf32_bits.cpp measures under 2^-19).
#include <bit>
#include <cstdint>

#include "core/host_device.hpp"

namespace kbench::gpu::conv {

inline constexpr std::uint32_t kTf32KeptMask = 0xffffe000u;  // sign, exponent, 10 mantissa bits
inline constexpr std::uint32_t kTf32HalfUnit = 0x00001000u;  // half of the last kept mantissa bit

KBENCH_HD std::uint32_t float_bits(float v) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(v);
#else
  return std::bit_cast<std::uint32_t>(v);
#endif
}

KBENCH_HD float bits_float(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  return std::bit_cast<float>(b);
#endif
}

// The value the tensor core multiplies when it is handed the bits `b` as a TF32 operand.
KBENCH_HD float tf32_value_of(std::uint32_t b) { return bits_float(b & kTf32KeptMask); }

// fp32 -> TF32 rounded to nearest, ties away from zero (what cvt.rna.tf32.f32 does), as a float
// whose low 13 mantissa bits are zero. Infinities and NaNs pass unchanged.
KBENCH_HD float round_tf32(float v) {
  const std::uint32_t bits = float_bits(v);
  if ((bits & 0x7f800000u) == 0x7f800000u) return v;
  return bits_float((bits + kTf32HalfUnit) & kTf32KeptMask);
}

struct Tf32Split {
  std::uint32_t big = 0;
  std::uint32_t small = 0;
};

KBENCH_HD Tf32Split split_tf32(float v) {
  Tf32Split s;
  s.big = float_bits(v) & kTf32KeptMask;
  s.small = float_bits(v - bits_float(s.big)) + kTf32HalfUnit;
  return s;
}

}  // namespace kbench::gpu::conv
