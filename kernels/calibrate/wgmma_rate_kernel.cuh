#pragma once
// The kernel behind `kbench calibrate`'s wgmma rates (calibrate_wgmma.cu, sm_90a). On Hopper,
// mma.sync reaches only part of the tensor cores' rate; wgmma (what cuDNN's and CUTLASS's Hopper
// kernels, and kbench's wgmma variant, use) is the instruction that can reach all of it, so a ceiling
// measured with mma.sync alone would not bound them.
//
// Each form is its own instance:
//   RegistersA_N96 - TF32 m64n96k8 with A (64 x 8) in registers, B (8 x 96) from shared memory: the
//                    form of kbench's wgmma implicit GEMM; two accumulator sets alternate;
//   SharedA_N256   - TF32 m64n256k8 with both operands in shared memory: the form of the fastest
//                    Hopper GEMMs; one set of 128 accumulators per thread;
//   SharedA_N256_F16, SharedA_N256_BF16 - the same with fp16 or bf16 operands, m64n256k16 (fp32
//                    accumulation): the dense half-precision tensor rate the fp16/bf16 floors use.
// Each warpgroup of a block issues its products back to back into its accumulators, four per
// committed group, and one group stays in flight while the next is issued (products into the same
// accumulators are ordered by the hardware), so the tensor core never waits for the issuing threads.
// The block's warpgroups share the operand tiles. Operand values are small and exact in every operand
// type, so any number of products stays finite; under tests/emu on the CPU, `result` receives every
// thread's accumulators, which the test checks against the sums they must hold.
#include <cstdint>

#include "core/half.hpp"
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

enum class WgmmaOperand { tf32, fp16, bf16 };

struct RegistersA_N96 {
  static constexpr WgmmaOperand kOperand = WgmmaOperand::tf32;
  static constexpr int kN = 96;
  static constexpr int kK = 8;
  static constexpr int kSets = 2;           // independent accumulator sets, alternating
  static constexpr int kAccumulators = 48;  // per thread and set: 64 x 96 over 128 threads
  static constexpr bool kAInShared = false;
};

template <WgmmaOperand kType>
struct SharedA_N256_Of {
  static constexpr WgmmaOperand kOperand = kType;
  static constexpr int kN = 256;
  static constexpr int kK = kType == WgmmaOperand::tf32 ? 8 : 16;  // 32 bytes of K per row either way
  static constexpr int kSets = 1;
  static constexpr int kAccumulators = 128;
  static constexpr bool kAInShared = true;
};
using SharedA_N256 = SharedA_N256_Of<WgmmaOperand::tf32>;
using SharedA_N256_F16 = SharedA_N256_Of<WgmmaOperand::fp16>;
using SharedA_N256_BF16 = SharedA_N256_Of<WgmmaOperand::bf16>;

template <class Form>
inline constexpr std::uint32_t kWgmmaRateElementBytes = Form::kOperand == WgmmaOperand::tf32 ? 4 : 2;

// Operands in the K-major, unswizzled layout of wgmma_desc.hpp: a block of 8 rows (M or N) has its
// two 16-byte k groups in adjacent core matrices (128 bytes apart), row blocks 256 bytes apart. A (when
// in shared memory) first, then B.
inline constexpr std::uint32_t kWgmmaRateKStrideBytes = 128;
inline constexpr std::uint32_t kWgmmaRateRowStrideBytes = 256;

template <class Form>
inline constexpr std::uint32_t kWgmmaRateABytes =
    Form::kAInShared ? kWgmmaRateM * Form::kK * kWgmmaRateElementBytes<Form> : 0;
template <class Form>
inline constexpr std::uint32_t kWgmmaRateSmemBytes =
    kWgmmaRateABytes<Form> + Form::kN * Form::kK * kWgmmaRateElementBytes<Form>;

template <class Form>
inline constexpr double kWgmmaRateFlopsPerProduct = 2.0 * kWgmmaRateM * Form::kN * Form::kK;

// Multiples of 2^-8 and 2^-12 below 8: exact in TF32, fp16 and bf16, and every product and every
// partial sum of the test's few products is exact in fp32.
KBENCH_HD float wgmma_rate_a(int row, int k) { return static_cast<float>(1 + (row + 3 * k) % 5) * 0x1p-8f; }
KBENCH_HD float wgmma_rate_b(int k, int n) { return static_cast<float>(1 + (5 * k + n) % 7) * 0x1p-12f; }

// Byte offset of element (k, row) in an operand tile.
template <class Form>
KBENCH_HD std::uint32_t wgmma_rate_offset(int k, int row) {
  const std::uint64_t desc = conv::wgmma_descriptor(0, kWgmmaRateKStrideBytes, kWgmmaRateRowStrideBytes);
  if constexpr (Form::kOperand == WgmmaOperand::tf32) return conv::wgmma_tf32_element_address(desc, k, row);
  return conv::wgmma_half_element_address(desc, k, row);
}

// Stores `value` (exact in the form's operand type) at byte `offset` of an operand tile.
template <class Form>
KBENCH_HD void wgmma_rate_store(unsigned char* tile, std::uint32_t offset, float value) {
  if constexpr (Form::kOperand == WgmmaOperand::tf32) {
    *reinterpret_cast<std::uint32_t*>(tile + offset) = conv::float_bits(value);
  } else {
    *reinterpret_cast<std::uint16_t*>(tile + offset) = Form::kOperand == WgmmaOperand::fp16
                                                           ? fp16_bits_from_float(value)
                                                           : bf16_bits_from_float(value);
  }
}

// One product of the form into `acc`.
template <class Form>
__device__ __forceinline__ void wgmma_rate_product(float (&acc)[Form::kAccumulators], const std::uint32_t (&a)[4],
                                                   std::uint64_t desc_a, std::uint64_t desc_b) {
  if constexpr (Form::kOperand == WgmmaOperand::fp16)
    conv::wgmma_m64n256k16_f16_ss(acc, desc_a, desc_b);
  else if constexpr (Form::kOperand == WgmmaOperand::bf16)
    conv::wgmma_m64n256k16_bf16_ss(acc, desc_a, desc_b);
  else if constexpr (Form::kAInShared)
    conv::wgmma_m64n256k8_tf32_ss(acc, desc_a, desc_b);
  else
    conv::wgmma_m64n96k8_tf32(acc, a, desc_b);
}

// `groups` committed groups of kWgmmaRateProductsPerGroup products per warpgroup. `result`, when
// not null, receives thread t's set s, accumulator j at [((block * threads + t) * sets + s) * accumulators + j].
template <class Form>
__global__ void __launch_bounds__(kWgmmaRateThreads) wgmma_rate_kernel(float* result, int groups) {
  extern __shared__ __align__(16) unsigned char wgmma_rate_smem[];
  unsigned char* const b_tile = wgmma_rate_smem + kWgmmaRateABytes<Form>;
  const int tid = static_cast<int>(threadIdx.x);
  for (int i = tid; i < Form::kN * Form::kK; i += kWgmmaRateThreads) {
    const int k = i / Form::kN, n = i % Form::kN;
    wgmma_rate_store<Form>(b_tile, wgmma_rate_offset<Form>(k, n), wgmma_rate_b(k, n));
  }
  if constexpr (Form::kAInShared)
    for (int i = tid; i < kWgmmaRateM * Form::kK; i += kWgmmaRateThreads) {
      const int k = i / kWgmmaRateM, m = i % kWgmmaRateM;
      wgmma_rate_store<Form>(wgmma_rate_smem, wgmma_rate_offset<Form>(k, m), wgmma_rate_a(m, k));
    }
  conv::fence_proxy_async_shared();  // the tensor core reads the tiles through the async proxy
  __syncthreads();

  // A in registers (RegistersA_N96): this thread's fragment (wgmma_ops.cuh), rows 16 w + gid (+ 8),
  // k tig (+ 4).
  const int rank = tid % 128, w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
  const int row = 16 * w + gid;
  const std::uint32_t a[4] = {
      conv::float_bits(wgmma_rate_a(row, tig)), conv::float_bits(wgmma_rate_a(row + 8, tig)),
      conv::float_bits(wgmma_rate_a(row, tig + 4)), conv::float_bits(wgmma_rate_a(row + 8, tig + 4))};
  const std::uint64_t desc_a =
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
    for (int p = 0; p < kWgmmaRateProductsPerGroup; ++p) wgmma_rate_product<Form>(acc[p % Form::kSets], a, desc_a, desc_b);
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
