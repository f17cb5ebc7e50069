#pragma once
// The element types of the cuda backend's tensors, as the kernels store and widen them: fp32 as float,
// fp16 and bf16 as their 16-bit patterns (no cuda_fp16.h). On the device the conversions are the
// hardware's cvt instructions, which round to nearest even as IEEE says: one instruction where
// core/half.hpp's definition-level code takes ~16 (fp16 narrowing) to ~24 (widening) in SASS, most of
// the channels-last depthwise kernel's instructions. On the host (the CPU emulation of the kernels, the
// reference) core/half.hpp converts from the formats' definitions; both give the same bits for every
// non-NaN value (tests/gpu/test_element_conversions.cu checks every fp16 and bf16 pattern on a GPU).
// Kernels accumulate in fp32 and round once, at the store. Host/device.
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
  static KBENCH_HD float widen(std::uint16_t v) {
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v));
    return f;
#else
    return float_from_fp16_bits(v);
#endif
  }
  static KBENCH_HD std::uint16_t narrow(float v) {
#if defined(__CUDA_ARCH__)
    std::uint16_t h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v));
    return h;
#else
    return fp16_bits_from_float(v);
#endif
  }
};

template <>
struct Element<DType::bf16> {
  using Storage = std::uint16_t;
  // Widening is a shift in any case (bf16 is fp32's upper half).
  static KBENCH_HD float widen(std::uint16_t v) { return float_from_bf16_bits(v); }
  static KBENCH_HD std::uint16_t narrow(float v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    std::uint16_t h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(v));
    return h;
#else
    return bf16_bits_from_float(v);
#endif
  }
};

template <DType kType>
using Storage = typename Element<kType>::Storage;

}  // namespace kbench::gpu::conv
