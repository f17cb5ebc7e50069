#pragma once
// CPU version of kernels/cuda/common/device_ops.cuh for the emulation tests (same names, same
// semantics): found first on the emulation tests' include path, so the kernel sources run unchanged.
//   cp.async   queued per thread, landed at issue or at cp.async.wait_group (CopyLanding, cuda_emu.hpp);
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
#include "tensor_core_math.hpp"

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

// The warp-collective products: each lane posts its fragments, the warp meets, each lane computes
// its four outputs from everyone's fragments (tensor_core_math.hpp: the PTX ISA's layouts read
// backwards), and the warp meets again before any lane's next product rewrites the slots.
template <class Lane>
inline void mma_warp_collective(const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], Lane&& lane_product) {
  ::kbench::emu::WarpSlots& s = ::kbench::emu::warp_slots();
  const int lane = ::kbench::emu::lane();
  for (int e = 0; e < 4; ++e) s.a[lane][e] = a[e];
  for (int e = 0; e < 2; ++e) s.b[lane][e] = b[e];
  ::kbench::emu::warp_sync();
  lane_product(s.a, s.b, lane);
  ::kbench::emu::warp_sync();
}

// d += a (16x8, row) * b (8x8, col), TF32.
inline void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_warp_collective(
      a, b, [&](const auto& sa, const auto& sb, int lane) { ::kbench::emu::mma_m16n8k8_tf32_lane(sa, sb, lane, d); });
}

// d += a (16x16, row) * b (16x8, col), 16-bit operands decoded by kDecode.
template <float (*kDecode)(std::uint16_t)>
inline void mma_16816_emulated(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_warp_collective(a, b, [&](const auto& sa, const auto& sb, int lane) {
    ::kbench::emu::mma_m16n8k16_lane<kDecode>(sa, sb, lane, d);
  });
}

inline void mma_f16_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_16816_emulated<::kbench::float_from_fp16_bits>(d, a, b);
}

inline void mma_bf16_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_16816_emulated<::kbench::float_from_bf16_bits>(d, a, b);
}

}  // namespace kbench::gpu::conv
