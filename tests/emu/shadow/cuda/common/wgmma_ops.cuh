#pragma once
// CPU version of kernels/cuda/common/wgmma_ops.cuh for the emulation tests (same names, same
// semantics). wgmma.mma_async meets its warp (PTX ISA 9.7.15.5: ".sync" makes a thread wait for the
// threads of its warp; ".aligned" only asks every thread of the warpgroup to issue the same
// instruction, so the product is no barrier between warps). Each warp's share of the product needs
// only its own 16 rows of A, so each thread then, at issue: checks the block's fences and that its
// warpgroup issues the same descriptors (cuda_emu.hpp, wgmma_issue), reads its operands (A from its
// warp's fragments or through A's descriptor, B through B's, as the tensor core reads them: TF32
// truncated, fp16/bf16 widened), and queues its share of the product (its accumulators). The product
// lands at the wgmma_wait that covers its group, summed in double from the accumulators then, after
// checking that the shared memory it read at issue still holds what it read: a kernel that reads
// accumulators, or overwrites an operand, before waiting fails here too. A fragments are read at
// issue: a kernel that rewrote its fragment registers before the wait would not be caught here (on
// the GPU ptxas guards them, serializing the products or spilling, and says so: scripts/kernel-stats.py).
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "cuda/common/proxy_fence.cuh"
#include "cuda/common/wgmma_desc.hpp"
#include "tensor_core_math.hpp"

namespace kbench::gpu::conv {

inline unsigned shared_address(const void* p) {
  const auto* c = static_cast<const unsigned char*>(p);
  unsigned char* base = ::kbench::emu::shared_base();
  if (c < base || c >= base + ::kbench::emu::shared_size())
    throw ::kbench::emu::EmulationError("shared_address: not in the block's dynamic shared memory");
  return static_cast<unsigned>(c - base);
}

inline void wgmma_fence() {}
inline void wgmma_commit() { ::kbench::emu::wgmma_commit(); }
template <int kPending>
inline void wgmma_wait() {
  ::kbench::emu::wgmma_wait(kPending);
}
inline void wgmma_fence_operand(float&) {}

// The shared-memory operand elements one thread's share of a product read at issue: their addresses
// and bits, checked again when the product completes.
class WgmmaSharedReads {
 public:
  // Element (k, mn) of the operand at `desc`: its value, recorded.
  double read(::kbench::emu::WgmmaOperand type, std::uint64_t desc, int k, int mn) {
    const std::uint32_t at = ::kbench::emu::wgmma_operand_address(type, desc, k, mn);
    const std::uint32_t bytes = ::kbench::emu::wgmma_operand_bytes(type);
    const std::uint32_t bits = bits_at(at, bytes);
    at_.push_back(at);
    bits_.push_back(bits);
    bytes_.push_back(static_cast<std::uint8_t>(bytes));
    return ::kbench::emu::wgmma_operand_value(type, bits);
  }
  // Fails when any element read has changed since: the kernel overwrote an operand of a product in flight.
  void check_unchanged() const {
    for (std::size_t i = 0; i < at_.size(); ++i)
      if (bits_at(at_[i], bytes_[i]) != bits_[i])
        throw ::kbench::emu::EmulationError(
            "wgmma: a shared-memory operand was overwritten while its product was in flight (before the "
            "wgmma.wait_group covering it)");
  }

 private:
  static std::uint32_t bits_at(std::uint32_t at, std::uint32_t bytes) {
    if (at + bytes > ::kbench::emu::shared_size())
      throw ::kbench::emu::EmulationError("wgmma: operand outside the block's shared memory");
    std::uint32_t bits = 0;
    std::memcpy(&bits, ::kbench::emu::shared_base() + at, bytes);
    return bits;
  }
  std::vector<std::uint32_t> at_, bits_;
  std::vector<std::uint8_t> bytes_;
};

inline void wgmma_check_descriptor(std::uint64_t desc) {
  const WgmmaDescFields f = wgmma_descriptor_fields(desc);
  if (f.swizzle != 0 || f.base_offset != 0)
    throw ::kbench::emu::EmulationError("wgmma: only unswizzled operands are emulated");
}

// Thread `rank`'s share of an m64nNkK product: A(row, k) for its two rows, B(k, col) for its
// columns, read now; the sums queued until the wait that covers the product.
template <int kN, int kK, class ReadA>
void wgmma_m64_issue(float (&d)[kN / 2], std::uint64_t desc_a, std::uint64_t desc_b, ::kbench::emu::WgmmaOperand type,
                     ReadA&& read_a) {
  const int rank = ::kbench::emu::warpgroup_rank();
  ::kbench::emu::wgmma_issue(desc_a, desc_b);
  wgmma_check_descriptor(desc_b);
  auto reads = std::make_shared<WgmmaSharedReads>();
  const int row0 = ::kbench::emu::wgmma_d_row(rank, 0);
  auto a = std::make_shared<std::vector<double>>(2 * kK);  // [row0 / row0 + 8][k]
  for (int h = 0; h < 2; ++h)
    for (int k = 0; k < kK; ++k) (*a)[static_cast<std::size_t>(h * kK + k)] = read_a(*reads, row0 + 8 * h, k);
  // The thread's columns 8 p + 2 tig + e (accumulators 4 p + e and 4 p + 2 + e): B at [2 p + e][k].
  auto b = std::make_shared<std::vector<double>>(static_cast<std::size_t>(kN / 4 * kK));
  for (int p = 0; p < kN / 8; ++p)
    for (int e = 0; e < 2; ++e)
      for (int k = 0; k < kK; ++k)
        (*b)[static_cast<std::size_t>((2 * p + e) * kK + k)] =
            reads->read(type, desc_b, k, ::kbench::emu::wgmma_d_col(rank, 4 * p + e));
  float(*out)[kN / 2] = &d;
  ::kbench::emu::wgmma_enqueue([out, rank, reads, a, b, row0] {
    reads->check_unchanged();
    const auto a_value = [&](int row, int k) { return (*a)[static_cast<std::size_t>((row - row0) / 8 * kK + k)]; };
    const auto b_value = [&](int k, int col) {
      return (*b)[static_cast<std::size_t>((2 * (col / 8) + col % 2) * kK + k)];
    };
    ::kbench::emu::wgmma_accumulate<kN, kK>(*out, rank, a_value, b_value);
  });
}

// d (64 x 96) += a (64 x 8, TF32 bits in the warp's registers: tensor_core_math.hpp) x b (8 x 96 at desc_b).
inline void wgmma_m64n96k8_tf32(float (&d)[48], const std::uint32_t (&a)[4], std::uint64_t desc_b) {
  ::kbench::emu::WarpSlots& s = ::kbench::emu::warp_slots();
  const int lane = ::kbench::emu::lane();
  for (int e = 0; e < 4; ++e) s.a[lane][e] = a[e];
  ::kbench::emu::warp_sync();
  wgmma_m64_issue<96, 8>(d, 0, desc_b, ::kbench::emu::WgmmaOperand::tf32, [&](WgmmaSharedReads&, int row, int k) {
    return static_cast<double>(tf32_value_of(
        s.a[::kbench::emu::wgmma_a_register_lane(row, k)][::kbench::emu::wgmma_a_register_element(row, k)]));
  });
  ::kbench::emu::warp_sync();  // every lane has read the slots before any lane's next product writes them
}

// Both operands from shared memory: m64nN, A (64 x K) at desc_a, B (K x N) at desc_b, both K-major
// and unswizzled.
template <int kN, int kK>
void wgmma_m64_ss(float (&d)[kN / 2], std::uint64_t desc_a, std::uint64_t desc_b, ::kbench::emu::WgmmaOperand type) {
  ::kbench::emu::warp_sync();
  wgmma_check_descriptor(desc_a);
  wgmma_m64_issue<kN, kK>(d, desc_a, desc_b, type,
                          [&](WgmmaSharedReads& reads, int row, int k) { return reads.read(type, desc_a, k, row); });
}

inline void wgmma_m64n256k8_tf32_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<256, 8>(d, desc_a, desc_b, ::kbench::emu::WgmmaOperand::tf32);
}

inline void wgmma_m64n256k16_f16_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<256, 16>(d, desc_a, desc_b, ::kbench::emu::WgmmaOperand::fp16);
}

inline void wgmma_m64n256k16_bf16_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<256, 16>(d, desc_a, desc_b, ::kbench::emu::WgmmaOperand::bf16);
}

inline void wgmma_m64n64k16_f16_ss(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<64, 16>(d, desc_a, desc_b, ::kbench::emu::WgmmaOperand::fp16);
}

inline void wgmma_m64n64k16_bf16_ss(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  wgmma_m64_ss<64, 16>(d, desc_a, desc_b, ::kbench::emu::WgmmaOperand::bf16);
}

}  // namespace kbench::gpu::conv
