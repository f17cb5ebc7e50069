#pragma once
// wgmma shared-memory matrix descriptors (PTX ISA, "Matrix Descriptor Format"), host/device so the CPU
// tests check the bit fields and the emulation decodes them as the tensor core does. kbench uses the
// K-major layout without swizzle: the operand is a grid of "core matrices" of 8 rows (M or N) x 16
// bytes (4 TF32 or 8 fp16/bf16 values along K), 128 contiguous bytes each; the descriptor holds where the first one
// starts and the byte distances to the next one along K ("leading dimension byte offset") and along
// M/N ("stride dimension byte offset").
//   bits  0-13  start address >> 4 (shared window)    bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4     bits 49-51  base offset (0)   bits 62-63  swizzle (0: none)
#include <cstdint>

#include "core/host_device.hpp"

namespace kbench::gpu::conv {

KBENCH_HD constexpr std::uint64_t wgmma_descriptor(std::uint32_t start_address, std::uint32_t k_stride_bytes,
                                                   std::uint32_t mn_stride_bytes) {
  return static_cast<std::uint64_t>((start_address >> 4) & 0x3fffu) |
         static_cast<std::uint64_t>((k_stride_bytes >> 4) & 0x3fffu) << 16 |
         static_cast<std::uint64_t>((mn_stride_bytes >> 4) & 0x3fffu) << 32;
}

struct WgmmaDescFields {
  std::uint32_t start_address = 0, k_stride_bytes = 0, mn_stride_bytes = 0, base_offset = 0, swizzle = 0;
};

KBENCH_HD constexpr WgmmaDescFields wgmma_descriptor_fields(std::uint64_t desc) {
  WgmmaDescFields f;
  f.start_address = static_cast<std::uint32_t>(desc & 0x3fffu) << 4;
  f.k_stride_bytes = static_cast<std::uint32_t>(desc >> 16 & 0x3fffu) << 4;
  f.mn_stride_bytes = static_cast<std::uint32_t>(desc >> 32 & 0x3fffu) << 4;
  f.base_offset = static_cast<std::uint32_t>(desc >> 49 & 0x7u);
  f.swizzle = static_cast<std::uint32_t>(desc >> 62 & 0x3u);
  return f;
}

// Shared-window byte address of TF32 element (k, mn) of the K-major, unswizzled operand at `desc`.
KBENCH_HD constexpr std::uint32_t wgmma_tf32_element_address(std::uint64_t desc, int k, int mn) {
  const WgmmaDescFields f = wgmma_descriptor_fields(desc);
  return f.start_address + static_cast<std::uint32_t>(k / 4) * f.k_stride_bytes +
         static_cast<std::uint32_t>(mn / 8) * f.mn_stride_bytes + static_cast<std::uint32_t>(mn % 8) * 16 +
         static_cast<std::uint32_t>(k % 4) * 4;
}

// The same for a 16-bit element (fp16, bf16): a core matrix row's 16 bytes hold 8 values along K.
KBENCH_HD constexpr std::uint32_t wgmma_half_element_address(std::uint64_t desc, int k, int mn) {
  const WgmmaDescFields f = wgmma_descriptor_fields(desc);
  return f.start_address + static_cast<std::uint32_t>(k / 8) * f.k_stride_bytes +
         static_cast<std::uint32_t>(mn / 8) * f.mn_stride_bytes + static_cast<std::uint32_t>(mn % 8) * 16 +
         static_cast<std::uint32_t>(k % 8) * 2;
}

}  // namespace kbench::gpu::conv
