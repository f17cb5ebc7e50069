#pragma once
// An fp64 value rounded once, to nearest even, to a tensor dtype: what the reference's output holds.
// Going through fp32 first (double -> float -> half) rounds twice and is wrong near fp16/bf16 ties: 1 +
// 2^-11 + 2^-40 is just above the tie between fp16's 1 and 1 + 2^-10, so it must round up, but as a
// float it is the tie itself and then rounds to the even 1. Rounding to fp32 *to odd* (toward zero,
// then the last bit set when anything was lost) keeps that information: with 13 or more bits to spare
// (fp32's 24 against fp16's 11 and bf16's 8), round-to-odd then round-to-nearest-even is the correct
// single rounding (Boldo and Melquiond, "When double rounding is odd", 2005).
#include <cmath>
#include <cstdint>

#include "core/half.hpp"
#include "core/types.hpp"

namespace kbench::reference {

// `value` rounded to fp32 toward zero, with the last mantissa bit set when that was inexact.
inline float round_to_odd_float(double value) {
  if (std::isnan(value)) return static_cast<float>(value);
  float nearest = static_cast<float>(value);  // may be inf past fp32's largest finite value
  if (static_cast<double>(nearest) == value) return nearest;
  if (std::fabs(static_cast<double>(nearest)) > std::fabs(value)) nearest = std::nextafter(nearest, 0.0f);
  return float_from_bits(float_bits(nearest) | 1u);
}

// fp64 -> `dtype` with one rounding (fp32: the ordinary conversion), widened back to float (exact).
inline float round_once_to_dtype(DType dtype, double value) {
  if (dtype == DType::fp32) return static_cast<float>(value);
  return round_to_dtype(dtype, round_to_odd_float(value));
}

}  // namespace kbench::reference
