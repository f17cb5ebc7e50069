#pragma once
// CPU version of kernels/cuda/common/wgmma_ops.cuh for the emulation tests (same names, same
// semantics). wgmma.mma_async meets its warpgroup: every thread posts its A fragment and the
// descriptor (which must agree across the warpgroup), then queues its share of the product (its 48
// accumulators) with a copy of the whole 64 x 8 A. The product lands at the wgmma_wait that covers
// its group, reading B from shared memory then, operands truncated to TF32 as the tensor core reads
// them, sums in double: a kernel that reads accumulators, or overwrites the B stage, before waiting
// computes wrong results here too. A fragments are captured when the product is issued: a kernel that
// rewrote its fragment registers before the wait would not be caught here (on the GPU ptxas guards
// them, serializing the products or spilling, and says so: scripts/kernel-stats.py).
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "core/half.hpp"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/wgmma_desc.hpp"

namespace kbench::gpu::conv {

inline unsigned shared_address(const void* p) {
  const auto* c = static_cast<const unsigned char*>(p);
  unsigned char* base = ::kbench::emu::shared_base();
  if (c < base || c >= base + ::kbench::emu::shared_size())
    throw ::kbench::emu::EmulationError("shared_address: not in the block's dynamic shared memory");
  return static_cast<unsigned>(c - base);
}

inline void wgmma_fence() {}
inline void fence_proxy_async_shared() {}  // one memory here: nothing to order between proxies
inline void wgmma_commit() { ::kbench::emu::wgmma_commit(); }
template <int kPending>
inline void wgmma_wait() {
  ::kbench::emu::wgmma_wait(kPending);
}
inline void wgmma_fence_operand(float&) {}

inline void wgmma_m64n96k8_tf32(float (&d)[48], const std::uint32_t (&a)[4], std::uint64_t desc_b) {
  ::kbench::emu::WarpgroupSlots& s = ::kbench::emu::warpgroup_slots();
  const int rank = ::kbench::emu::warpgroup_rank();
  for (int e = 0; e < 4; ++e) s.a[rank][e] = a[e];
  s.desc[rank] = desc_b;
  ::kbench::emu::warpgroup_sync();
  // A[row][k]: row 16w + gid + 8 (e % 2), k = tig + 4 (e / 2) from element e of lane 4 gid + tig of warp w.
  auto a_matrix = std::make_shared<std::array<float, 64 * 8>>();
  for (int t = 0; t < 128; ++t) {
    if (s.desc[t] != desc_b) throw ::kbench::emu::EmulationError("wgmma: descriptors differ across the warpgroup");
    const int w = t / 32, gid = t % 32 / 4, tig = t % 4;
    for (int e = 0; e < 4; ++e)
      (*a_matrix)[(16 * w + gid + 8 * (e % 2)) * 8 + tig + 4 * (e / 2)] = tf32_value_of(s.a[t][e]);
  }
  ::kbench::emu::warpgroup_sync();  // everyone has read the slots before any thread's next product writes them
  const WgmmaDescFields f = wgmma_descriptor_fields(desc_b);
  if (f.swizzle != 0 || f.base_offset != 0)
    throw ::kbench::emu::EmulationError("wgmma: only unswizzled operands are emulated");
  float* out = d;
  ::kbench::emu::wgmma_enqueue([out, a_matrix, desc_b, rank] {
    const int w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
    const unsigned char* smem = ::kbench::emu::shared_base();
    for (int j = 0; j < 48; ++j) {
      const int row = 16 * w + gid + 8 * (j % 4 / 2), col = 8 * (j / 4) + 2 * tig + j % 2;
      double sum = out[j];
      for (int k = 0; k < 8; ++k) {
        const std::uint32_t at = wgmma_tf32_element_address(desc_b, k, col);
        if (at + 4 > ::kbench::emu::shared_size())
          throw ::kbench::emu::EmulationError("wgmma: B operand outside the block's shared memory");
        std::uint32_t bits;
        std::memcpy(&bits, smem + at, 4);
        sum += static_cast<double>((*a_matrix)[row * 8 + k]) * static_cast<double>(tf32_value_of(bits));
      }
      out[j] = static_cast<float>(sum);
    }
  });
}

// Both operands from shared memory: m64nN, A (64 x K) at desc_a, B (K x N) at desc_b, both
// K-major and unswizzled, read when the product lands (at the wait that covers it). `element(desc, k,
// mn)` reads one operand value as the tensor core does (TF32 truncation, or a 16-bit float widened).
template <int kN, int kK, class Element>
void wgmma_m64_ss(float (&d)[kN / 2], std::uint64_t desc_a, std::uint64_t desc_b, Element element) {
  ::kbench::emu::WarpgroupSlots& s = ::kbench::emu::warpgroup_slots();
  const int rank = ::kbench::emu::warpgroup_rank();
  s.desc_a[rank] = desc_a;
  s.desc[rank] = desc_b;
  ::kbench::emu::warpgroup_sync();
  for (int t = 0; t < 128; ++t)
    if (s.desc_a[t] != desc_a || s.desc[t] != desc_b)
      throw ::kbench::emu::EmulationError("wgmma: descriptors differ across the warpgroup");
  ::kbench::emu::warpgroup_sync();
  for (const std::uint64_t desc : {desc_a, desc_b}) {
    const WgmmaDescFields f = wgmma_descriptor_fields(desc);
    if (f.swizzle != 0 || f.base_offset != 0)
      throw ::kbench::emu::EmulationError("wgmma: only unswizzled operands are emulated");
  }
  float* out = d;
  ::kbench::emu::wgmma_enqueue([out, desc_a, desc_b, rank, element] {
    const int w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
    for (int j = 0; j < kN / 2; ++j) {
      const int row = 16 * w + gid + 8 * (j % 4 / 2), col = 8 * (j / 4) + 2 * tig + j % 2;
      double sum = out[j];
      for (int k = 0; k < kK; ++k) sum += element(desc_a, k, row) * element(desc_b, k, col);
      out[j] = static_cast<float>(sum);
    }
  });
}

// The `bytes` bytes at `at` of the block's shared memory, checked to lie inside it.
inline std::uint32_t wgmma_shared_bits(std::uint32_t at, std::uint32_t bytes) {
  if (at + bytes > ::kbench::emu::shared_size())
    throw ::kbench::emu::EmulationError("wgmma: operand outside the block's shared memory");
  std::uint32_t bits = 0;
  std::memcpy(&bits, ::kbench::emu::shared_base() + at, bytes);
  return bits;
}

inline void wgmma_m64n256k8_tf32_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<256, 8>(d, desc_a, desc_b, [](std::uint64_t desc, int k, int mn) {
    return static_cast<double>(tf32_value_of(wgmma_shared_bits(wgmma_tf32_element_address(desc, k, mn), 4)));
  });
}

// 16-bit operand value (k, mn) at `desc`, widened as the tensor core reads it.
inline double wgmma_fp16_operand(std::uint64_t desc, int k, int mn) {
  const auto bits = static_cast<std::uint16_t>(wgmma_shared_bits(wgmma_half_element_address(desc, k, mn), 2));
  return static_cast<double>(float_from_fp16_bits(bits));
}

inline double wgmma_bf16_operand(std::uint64_t desc, int k, int mn) {
  const auto bits = static_cast<std::uint16_t>(wgmma_shared_bits(wgmma_half_element_address(desc, k, mn), 2));
  return static_cast<double>(float_from_bf16_bits(bits));
}

inline void wgmma_m64n256k16_f16_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<256, 16>(d, desc_a, desc_b, wgmma_fp16_operand);
}

inline void wgmma_m64n256k16_bf16_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<256, 16>(d, desc_a, desc_b, wgmma_bf16_operand);
}

inline void wgmma_m64n64k16_f16_ss(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<64, 16>(d, desc_a, desc_b, wgmma_fp16_operand);
}

inline void wgmma_m64n64k16_bf16_ss(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<64, 16>(d, desc_a, desc_b, wgmma_bf16_operand);
}

}  // namespace kbench::gpu::conv
