#pragma once
// The kernel behind `kbench calibrate`'s TF32 wgmma rates (calibrate_wgmma.cu, sm_90a). On Hopper,
// mma.sync reaches only part of the tensor cores' TF32 rate; wgmma (what cuDNN's and CUTLASS's
// Hopper kernels, and kbench's wgmma variant, use) is the instruction that can reach all of it, so a
// TF32 ceiling measured with mma.sync alone would not bound them.
//
// Two forms are timed, each its own instance:
//   RegistersA_N96 - m64n96k8 with A (64 x 8) in registers, B (8 x 96) from shared memory: the form
//                    of kbench's wgmma implicit GEMM; two accumulator sets alternate;
//   SharedA_N256   - m64n256k8 with both operands in shared memory: the form of the fastest Hopper
//                    GEMMs; one set of 128 accumulators per thread.
// Each warpgroup of a block issues its products back to back into its accumulators, four per
// committed group, and one group stays in flight while the next is issued (products into the same
// accumulators are ordered by the hardware), so the tensor core never waits for the issuing threads.
// The block's warpgroups share the operand tiles. Operand values are small and exact in TF32, so any
// number of products stays finite; under tests/emu on the CPU, `result` receives every thread's
// accumulators, which the test checks against the sums they must hold.
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/common/device_ops.cuh"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/wgmma_desc.hpp"
#include "cuda/common/wgmma_ops.cuh"

namespace kbench::gpu::calibration {

inline constexpr int kWgmmaRateWarpgroups = 2;  // per block
inline constexpr int kWgmmaRateThreads = 128 * kWgmmaRateWarpgroups;
inline constexpr int kWgmmaRateProductsPerGroup = 4;  // wgmma per committed group
inline constexpr int kWgmmaRateM = 64;
inline constexpr int kWgmmaRateK = 8;

struct RegistersA_N96 {
  static constexpr int kN = 96;
  static constexpr int kSets = 2;           // independent accumulator sets, alternating
  static constexpr int kAccumulators = 48;  // per thread and set: 64 x 96 over 128 threads
  static constexpr bool kAInShared = false;
};

struct SharedA_N256 {
  static constexpr int kN = 256;
  static constexpr int kSets = 1;
  static constexpr int kAccumulators = 128;
  static constexpr bool kAInShared = true;
};

// Operands in the K-major, unswizzled layout of wgmma_desc.hpp: a block of 8 rows (M or N) has its
// two k quads in adjacent core matrices (128 bytes apart), row blocks 256 bytes apart. A (when in
// shared memory) first, then B.
inline constexpr std::uint32_t kWgmmaRateKStrideBytes = 128;
inline constexpr std::uint32_t kWgmmaRateRowStrideBytes = 256;

template <class Form>
inline constexpr std::uint32_t kWgmmaRateABytes = Form::kAInShared ? kWgmmaRateM* kWgmmaRateK * 4 : 0;
template <class Form>
inline constexpr std::uint32_t kWgmmaRateSmemBytes = kWgmmaRateABytes<Form> + Form::kN* kWgmmaRateK * 4;

template <class Form>
inline constexpr double kWgmmaRateFlopsPerProduct = 2.0 * kWgmmaRateM* Form::kN* kWgmmaRateK;

// Multiples of 2^-8 and 2^-12 below 8: every product and every partial sum of the test's few
// products is exact in fp32.
KBENCH_HD float wgmma_rate_a(int row, int k) { return static_cast<float>(1 + (row + 3 * k) % 5) * 0x1p-8f; }
KBENCH_HD float wgmma_rate_b(int k, int n) { return static_cast<float>(1 + (5 * k + n) % 7) * 0x1p-12f; }

// Byte offset of element (k, row) in an operand tile.
KBENCH_HD std::uint32_t wgmma_rate_offset(int k, int row) {
  return conv::wgmma_tf32_element_address(conv::wgmma_descriptor(0, kWgmmaRateKStrideBytes, kWgmmaRateRowStrideBytes),
                                          k, row);
}

// `groups` committed groups of kWgmmaRateProductsPerGroup products per warpgroup. `result`, when
// not null, receives thread t's set s, accumulator j at [((block * threads + t) * sets + s) * accumulators + j].
template <class Form>
__global__ void __launch_bounds__(kWgmmaRateThreads) tf32_wgmma_rate_kernel(float* result, int groups) {
  extern __shared__ __align__(16) unsigned char wgmma_rate_smem[];
  unsigned char* const b_tile = wgmma_rate_smem + kWgmmaRateABytes<Form>;
  const int tid = static_cast<int>(threadIdx.x);
  for (int i = tid; i < Form::kN * kWgmmaRateK; i += kWgmmaRateThreads) {
    const int k = i / Form::kN, n = i % Form::kN;
    *reinterpret_cast<std::uint32_t*>(b_tile + wgmma_rate_offset(k, n)) = conv::float_bits(wgmma_rate_b(k, n));
  }
  if constexpr (Form::kAInShared)
    for (int i = tid; i < kWgmmaRateM * kWgmmaRateK; i += kWgmmaRateThreads) {
      const int k = i / kWgmmaRateM, m = i % kWgmmaRateM;
      *reinterpret_cast<std::uint32_t*>(wgmma_rate_smem + wgmma_rate_offset(k, m)) =
          conv::float_bits(wgmma_rate_a(m, k));
    }
  conv::fence_proxy_async_shared();  // the tensor core reads the tiles through the async proxy
  __syncthreads();

  // A in registers (RegistersA_N96): this thread's fragment (wgmma_ops.cuh), rows 16 w + gid (+ 8),
  // k tig (+ 4).
  const int rank = tid % 128, w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
  const int row = 16 * w + gid;
  [[maybe_unused]] const std::uint32_t a[4] = {
      conv::float_bits(wgmma_rate_a(row, tig)), conv::float_bits(wgmma_rate_a(row + 8, tig)),
      conv::float_bits(wgmma_rate_a(row, tig + 4)), conv::float_bits(wgmma_rate_a(row + 8, tig + 4))};
  [[maybe_unused]] const std::uint64_t desc_a =
      conv::wgmma_descriptor(conv::shared_address(wgmma_rate_smem), kWgmmaRateKStrideBytes, kWgmmaRateRowStrideBytes);
  const std::uint64_t desc_b =
      conv::wgmma_descriptor(conv::shared_address(b_tile), kWgmmaRateKStrideBytes, kWgmmaRateRowStrideBytes);

  float acc[Form::kSets][Form::kAccumulators];
#pragma unroll
  for (int s = 0; s < Form::kSets; ++s)
#pragma unroll
    for (int j = 0; j < Form::kAccumulators; ++j) {
      acc[s][j] = 0.0f;
      conv::wgmma_fence_operand(acc[s][j]);
    }
  for (int g = 0; g < groups; ++g) {
    conv::wgmma_fence();
#pragma unroll
    for (int p = 0; p < kWgmmaRateProductsPerGroup; ++p) {
      if constexpr (Form::kAInShared)
        conv::wgmma_m64n256k8_tf32_ss(acc[p % Form::kSets], desc_a, desc_b);
      else
        conv::wgmma_m64n96k8_tf32(acc[p % Form::kSets], a, desc_b);
    }
    conv::wgmma_commit();
    conv::wgmma_wait<1>();  // the next group may be issued while this one runs
  }
  conv::wgmma_wait<0>();
#pragma unroll
  for (int s = 0; s < Form::kSets; ++s)
#pragma unroll
    for (int j = 0; j < Form::kAccumulators; ++j) conv::wgmma_fence_operand(acc[s][j]);

  if (result == nullptr) return;
  float* mine =
      result + (static_cast<std::int64_t>(blockIdx.x) * kWgmmaRateThreads + tid) * Form::kSets * Form::kAccumulators;
#pragma unroll
  for (int s = 0; s < Form::kSets; ++s)
#pragma unroll
    for (int j = 0; j < Form::kAccumulators; ++j) mine[s * Form::kAccumulators + j] = acc[s][j];
}

}  // namespace kbench::gpu::calibration
