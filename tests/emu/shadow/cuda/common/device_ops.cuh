#pragma once
// CPU version of kernels/cuda/common/device_ops.cuh for the emulation tests (same names, same
// semantics): found first on the emulation tests' include path, so the kernel sources run unchanged.
//   cp.async   queued per thread, landed at cp.async.wait_group (cuda_emu.cpp);
//   mma.sync   m16n8k8 TF32 as a warp-collective: each lane posts its fragments, the warp meets,
//              each lane computes its four outputs from everyone's fragments (the PTX ISA's layout),
//              operands truncated to TF32 as the tensor core reads them, products summed in double;
//              m16n8k16 fp16/bf16 the same way, each lane's outputs from every lane's fragments by the
//              PTX ISA's layout written out independently of the kernels' own fragment code (so a
//              kernel that loads a fragment wrongly computes a wrong product here too), operands
//              decoded exactly (core/half.hpp), products exact (11- or 8-bit significands), the 16
//              products and the accumulator summed in double and rounded once to fp32.
#include <cstdint>

#include "core/half.hpp"
#include "cuda/common/tf32_bits.hpp"

namespace kbench::gpu::conv {

inline void cp_async_4(float* dst, const float* src, bool pred) { ::kbench::emu::cp_async(dst, src, 4, pred ? 4 : 0); }

inline void cp_async_16(float* dst, const float* src) { ::kbench::emu::cp_async(dst, src, 16, 16); }

inline void cp_async_16_zfill(void* dst, const void* src, bool pred) {
  ::kbench::emu::cp_async(dst, src, 16, pred ? 16 : 0);
}

inline void cp_async_commit() { ::kbench::emu::cp_async_commit(); }

template <int kPending>
inline void cp_async_wait() {
  ::kbench::emu::cp_async_wait(kPending);
}

// d += a (16x8, row) * b (8x8, col). gid = lane / 4, tig = lane % 4:
//   a0 (gid, tig)  a1 (gid+8, tig)  a2 (gid, tig+4)  a3 (gid+8, tig+4)
//   b0 (tig, gid)  b1 (tig+4, gid)
//   d0 (gid, 2tig) d1 (gid, 2tig+1) d2 (gid+8, 2tig) d3 (gid+8, 2tig+1)
inline void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  ::kbench::emu::WarpSlots& s = ::kbench::emu::warp_slots();
  const int lane = ::kbench::emu::lane();
  for (int e = 0; e < 4; ++e) s.a[lane][e] = a[e];
  for (int e = 0; e < 2; ++e) s.b[lane][e] = b[e];
  ::kbench::emu::warp_sync();
  const auto a_at = [&](int row, int k) { return tf32_value_of(s.a[(row % 8) * 4 + k % 4][(row / 8) + 2 * (k / 4)]); };
  const auto b_at = [&](int k, int col) { return tf32_value_of(s.b[col * 4 + k % 4][k / 4]); };
  float out[4];
  for (int e = 0; e < 4; ++e) {
    const int row = lane / 4 + 8 * (e / 2), col = 2 * (lane % 4) + e % 2;
    double sum = d[e];
    for (int k = 0; k < 8; ++k) sum += static_cast<double>(a_at(row, k)) * static_cast<double>(b_at(k, col));
    out[e] = static_cast<float>(sum);
  }
  ::kbench::emu::warp_sync();  // every lane has read the slots before any lane's next product writes them
  for (int e = 0; e < 4; ++e) d[e] = out[e];
}

// d += a (16x16, row) * b (16x8, col), 16-bit operands, as the PTX ISA lays out m16n8k16's fragments
// (gid = lane / 4, tig = lane % 4; element i of a register pair: register i / 2, half i % 2, low first):
//   a_i  row gid + 8 * ((i / 2) % 2), col 2 tig + (i % 2) + 8 * (i / 4)
//   b_i  row 2 tig + (i % 2) + 8 * (i / 2), col gid
//   d_i  row gid + 8 * (i / 2), col 2 tig + (i % 2)
// Read backwards here: A(row, k) lives in lane (row % 8) * 4 + (k % 8) / 2, element
// i = k % 2 + 2 * (row / 8) + 4 * (k / 8); B(k, col) in lane col * 4 + (k % 8) / 2, element
// i = k % 2 + 2 * (k / 8).
template <float (*kDecode)(std::uint16_t)>
inline void mma_16816_emulated(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  ::kbench::emu::WarpSlots& s = ::kbench::emu::warp_slots();
  const int lane = ::kbench::emu::lane();
  for (int e = 0; e < 4; ++e) s.a[lane][e] = a[e];
  for (int e = 0; e < 2; ++e) s.b[lane][e] = b[e];
  ::kbench::emu::warp_sync();
  const auto half_of = [](std::uint32_t reg, int i) { return static_cast<std::uint16_t>(reg >> (16 * (i % 2))); };
  const auto a_at = [&](int row, int k) {
    const int i = k % 2 + 2 * (row / 8) + 4 * (k / 8);
    return kDecode(half_of(s.a[(row % 8) * 4 + (k % 8) / 2][i / 2], i));
  };
  const auto b_at = [&](int k, int col) {
    const int i = k % 2 + 2 * (k / 8);
    return kDecode(half_of(s.b[col * 4 + (k % 8) / 2][i / 2], i));
  };
  float out[4];
  for (int e = 0; e < 4; ++e) {
    const int row = lane / 4 + 8 * (e / 2), col = 2 * (lane % 4) + e % 2;
    double sum = d[e];
    for (int k = 0; k < 16; ++k) sum += static_cast<double>(a_at(row, k)) * static_cast<double>(b_at(k, col));
    out[e] = static_cast<float>(sum);
  }
  ::kbench::emu::warp_sync();  // every lane has read the slots before any lane's next product writes them
  for (int e = 0; e < 4; ++e) d[e] = out[e];
}

inline void mma_f16_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_16816_emulated<::kbench::float_from_fp16_bits>(d, a, b);
}

inline void mma_bf16_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_16816_emulated<::kbench::float_from_bf16_bits>(d, a, b);
}

}  // namespace kbench::gpu::conv
