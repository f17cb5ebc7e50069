#pragma once
// How one of a problem's tensors is stored on the device: its element type (fp32, or fp16/bf16 as
// 16-bit patterns) and its memory layout (problem/memory_layout.hpp), with the index and element
// arithmetic the runtime's fill, poison, checksum and read-back kernels share. Host/device and free of
// CUDA headers, so tests/unit checks it on the CPU (test_tensor_storage.cpp). Kernels keep indices
// logical (PyTorch's NCHW order) for everything a value depends on, and memory offsets for access.
#include <cstdint>

#include "core/half.hpp"
#include "core/host_device.hpp"
#include "core/types.hpp"
#include "data/counter_rng.hpp"
#include "problem/memory_layout.hpp"

namespace kbench::gpu {

struct TensorStorage {
  DType dtype = DType::fp32;
  bool channels_last = false;  // [d0, spatial..., C] in memory; never for the bias (one axis)
  ChannelAxes axes;            // what channels last permutes
  std::int64_t count = 0;      // elements
};

KBENCH_HD TensorStorage tensor_storage(const ConvProblem& p, Operand operand) {
  TensorStorage s;
  s.dtype = p.dtype;
  s.channels_last = p.layout == Layout::nhwc && operand != Operand::bias;
  s.axes = channel_axes(p, operand);
  s.count = operand_elements(p, operand);
  return s;
}

// A plain fp32 buffer of `count` elements, offsets equal to indices (the runtime's own tests, scratch).
KBENCH_HD TensorStorage flat_storage(DType dtype, std::int64_t count) {
  TensorStorage s;
  s.dtype = dtype;
  s.count = count;
  return s;
}

KBENCH_HD std::int64_t storage_bytes(const TensorStorage& s) { return s.count * bytes_per_element(s.dtype); }

// Where logical element `logical` lives (in elements from the start), and the inverse.
KBENCH_HD std::int64_t storage_offset(const TensorStorage& s, std::int64_t logical) {
  return s.channels_last ? channels_last_offset(logical, s.axes) : logical;
}
KBENCH_HD std::int64_t storage_logical(const TensorStorage& s, std::int64_t offset) {
  return s.channels_last ? channels_last_logical(offset, s.axes) : offset;
}

// The bit pattern an element of `dtype` stores for `value` (rounded to nearest even for fp16/bf16;
// 16-bit patterns in the low half), and the value a pattern holds, widened exactly to fp32.
KBENCH_HD std::uint32_t encode_element(DType dtype, float value) {
  switch (dtype) {
    case DType::fp16: return fp16_bits_from_float(value);
    case DType::bf16: return bf16_bits_from_float(value);
    case DType::fp32: break;
  }
  return float_bits(value);
}
KBENCH_HD float decode_element(DType dtype, std::uint32_t bits) {
  switch (dtype) {
    case DType::fp16: return float_from_fp16_bits(static_cast<std::uint16_t>(bits));
    case DType::bf16: return float_from_bf16_bits(static_cast<std::uint16_t>(bits));
    case DType::fp32: break;
  }
  return float_from_bits(bits);
}

// Poison: a quiet NaN of the dtype, so an element a kernel never writes fails verification.
KBENCH_HD std::uint32_t nan_bits(DType dtype) {
  switch (dtype) {
    case DType::fp16: return 0x7e00u;
    case DType::bf16: return 0x7fc0u;
    case DType::fp32: break;
  }
  return 0x7fc00000u;
}

// What the seeded fill stores at memory offset `offset`: the value of the element's LOGICAL index,
// so one problem in either layout holds the same tensor and the reference regenerates it by index.
KBENCH_HD std::uint32_t seeded_element_bits(const TensorStorage& s, std::uint64_t seed, data::TensorRole role,
                                            float bound, std::int64_t offset) {
  const auto logical = static_cast<std::uint64_t>(storage_logical(s, offset));
  return encode_element(s.dtype, data::draw_as(s.dtype, seed, role, logical, bound));
}

// One checksum term: a 64-bit mix of (offset, element bits). Summed mod 2^64 the total does not
// depend on the order of the terms, yet a changed element or a swapped pair changes it.
KBENCH_HD std::uint64_t checksum_term(std::int64_t offset, std::uint32_t bits) {
  return data::mix64((static_cast<std::uint64_t>(bits) << 32) ^
                     data::mix64(static_cast<std::uint64_t>(offset) + 0x632be59bd9b4e019ULL));
}

}  // namespace kbench::gpu
