#pragma once
// The element types of the cuda backend's tensors, as the kernels store and widen them: fp32 as float,
// fp16 and bf16 as their 16-bit patterns (no cuda_fp16.h: core/half.hpp converts with round to nearest
// even from the formats' definitions, so the kernels, their CPU emulation and the reference round
// identically). Kernels accumulate in fp32 and round once, at the store. Host/device.
#include <cstdint>

#include "core/half.hpp"
#include "core/host_device.hpp"
#include "core/types.hpp"

namespace kbench::gpu::conv {

template <DType kType>
struct Element;

template <>
struct Element<DType::fp32> {
  using Storage = float;
  static KBENCH_HD float widen(float v) { return v; }
  static KBENCH_HD float narrow(float v) { return v; }
};

template <>
struct Element<DType::fp16> {
  using Storage = std::uint16_t;
  static KBENCH_HD float widen(std::uint16_t v) { return float_from_fp16_bits(v); }
  static KBENCH_HD std::uint16_t narrow(float v) { return fp16_bits_from_float(v); }
};

template <>
struct Element<DType::bf16> {
  using Storage = std::uint16_t;
  static KBENCH_HD float widen(std::uint16_t v) { return float_from_bf16_bits(v); }
  static KBENCH_HD std::uint16_t narrow(float v) { return bf16_bits_from_float(v); }
};

template <DType kType>
using Storage = typename Element<kType>::Storage;

}  // namespace kbench::gpu::conv
