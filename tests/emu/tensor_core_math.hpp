#pragma once
// The arithmetic of the emulated tensor-core products (the shadow device_ops.cuh and wgmma_ops.cuh),
// apart from the fibers that run them: which lane holds which fragment element, which accumulator
// is which element of D, and the sums. Pure functions, so the unit tests hold them against the PTX
// ISA's layouts written out as data (tests/unit/test_ptx_layouts.cpp) without running the emulation.
#include <cstdint>

#include "core/half.hpp"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/wgmma_desc.hpp"

namespace kbench::emu {

// --- mma.sync (warp-collective): lane `lane`'s four outputs of d += a b from every lane's fragments.
// gid = lane / 4, tig = lane % 4; d_e is (gid + 8 (e / 2), 2 tig + e % 2) in both shapes.
inline int mma_d_row(int lane, int e) { return lane / 4 + 8 * (e / 2); }
inline int mma_d_col(int lane, int e) { return 2 * (lane % 4) + e % 2; }

// m16n8k8 TF32: a0 (gid, tig) a1 (gid + 8, tig) a2 (gid, tig + 4) a3 (gid + 8, tig + 4); b0 (tig, gid)
// b1 (tig + 4, gid), read backwards: A(row, k) is element row / 8 + 2 (k / 4) of lane (row % 8) 4 + k % 4.
inline void mma_m16n8k8_tf32_lane(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], int lane,
                                  float (&d)[4]) {
  using gpu::conv::tf32_value_of;
  const auto a_at = [&](int row, int k) { return tf32_value_of(a[(row % 8) * 4 + k % 4][(row / 8) + 2 * (k / 4)]); };
  const auto b_at = [&](int k, int col) { return tf32_value_of(b[col * 4 + k % 4][k / 4]); };
  float out[4];
  for (int e = 0; e < 4; ++e) {
    const int row = mma_d_row(lane, e), col = mma_d_col(lane, e);
    double sum = d[e];
    for (int k = 0; k < 8; ++k) sum += static_cast<double>(a_at(row, k)) * static_cast<double>(b_at(k, col));
    out[e] = static_cast<float>(sum);
  }
  for (int e = 0; e < 4; ++e) d[e] = out[e];
}

// m16n8k16 with 16-bit operands decoded by kDecode (element i of a register pair: register i / 2,
// half i % 2, low first):
//   a_i  row gid + 8 ((i / 2) % 2), col 2 tig + (i % 2) + 8 (i / 4)
//   b_i  row 2 tig + (i % 2) + 8 (i / 2), col gid
// Read backwards: A(row, k) lives in lane (row % 8) 4 + (k % 8) / 2, element
// i = k % 2 + 2 (row / 8) + 4 (k / 8); B(k, col) in lane col 4 + (k % 8) / 2, element i = k % 2 + 2 (k / 8).
template <float (*kDecode)(std::uint16_t)>
void mma_m16n8k16_lane(const std::uint32_t (&a)[32][4], const std::uint32_t (&b)[32][2], int lane, float (&d)[4]) {
  const auto half_of = [](std::uint32_t reg, int i) { return static_cast<std::uint16_t>(reg >> (16 * (i % 2))); };
  const auto a_at = [&](int row, int k) {
    const int i = k % 2 + 2 * (row / 8) + 4 * (k / 8);
    return kDecode(half_of(a[(row % 8) * 4 + (k % 8) / 2][i / 2], i));
  };
  const auto b_at = [&](int k, int col) {
    const int i = k % 2 + 2 * (k / 8);
    return kDecode(half_of(b[col * 4 + (k % 8) / 2][i / 2], i));
  };
  float out[4];
  for (int e = 0; e < 4; ++e) {
    const int row = mma_d_row(lane, e), col = mma_d_col(lane, e);
    double sum = d[e];
    for (int k = 0; k < 16; ++k) sum += static_cast<double>(a_at(row, k)) * static_cast<double>(b_at(k, col));
    out[e] = static_cast<float>(sum);
  }
  for (int e = 0; e < 4; ++e) d[e] = out[e];
}

// --- wgmma.mma_async m64nNk: thread `rank` of the warpgroup (warp w = rank / 32, gid, tig) holds
// accumulator j as D(16 w + gid + 8 (j % 4 / 2), 8 (j / 4) + 2 tig + j % 2).
inline int wgmma_d_row(int rank, int j) { return 16 * (rank / 32) + rank % 32 / 4 + 8 * (j % 4 / 2); }
inline int wgmma_d_col(int rank, int j) { return 8 * (j / 4) + 2 * (rank % 4) + j % 2; }

// A of an m64nNk8 TF32 product in registers, as mma.m16n8k8 per warp: A(row, k) is element
// (row % 16) / 8 + 2 (k / 4) of lane (row % 8) 4 + k % 4 of warp row / 16.
inline int wgmma_a_register_lane(int row, int k) { return (row % 8) * 4 + k % 4; }
inline int wgmma_a_register_element(int row, int k) { return (row % 16) / 8 + 2 * (k / 4); }

// The operand types the emulated wgmma reads from shared memory, and an element's address (through
// the descriptor, wgmma_desc.hpp), size and value.
enum class WgmmaOperand { tf32, fp16, bf16 };
inline std::uint32_t wgmma_operand_address(WgmmaOperand type, std::uint64_t desc, int k, int mn) {
  return type == WgmmaOperand::tf32 ? gpu::conv::wgmma_tf32_element_address(desc, k, mn)
                                    : gpu::conv::wgmma_half_element_address(desc, k, mn);
}
inline std::uint32_t wgmma_operand_bytes(WgmmaOperand type) { return type == WgmmaOperand::tf32 ? 4 : 2; }
inline double wgmma_operand_value(WgmmaOperand type, std::uint32_t bits) {
  if (type == WgmmaOperand::tf32) return static_cast<double>(gpu::conv::tf32_value_of(bits));
  const auto half = static_cast<std::uint16_t>(bits);
  return static_cast<double>(type == WgmmaOperand::fp16 ? float_from_fp16_bits(half) : float_from_bf16_bits(half));
}

// d[j] += sum over k < kK of A(row, k) B(k, col) for thread `rank`'s accumulators j < kN / 2 (row,
// col as above), each sum in double from the accumulator, rounded once.
template <int kN, int kK, class AValue, class BValue>
void wgmma_accumulate(float (&d)[kN / 2], int rank, AValue&& a_value, BValue&& b_value) {
  for (int j = 0; j < kN / 2; ++j) {
    const int row = wgmma_d_row(rank, j), col = wgmma_d_col(rank, j);
    double sum = d[j];
    for (int k = 0; k < kK; ++k) sum += a_value(row, k) * b_value(k, col);
    d[j] = static_cast<float>(sum);
  }
}

}  // namespace kbench::emu
