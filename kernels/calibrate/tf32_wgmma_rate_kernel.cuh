#pragma once
// The kernel behind `kbench calibrate`'s TF32 wgmma rate (calibrate_wgmma.cu, sm_90a). On Hopper,
// mma.sync reaches only part of the tensor cores' TF32 rate; wgmma (what cuDNN's and CUTLASS's
// Hopper kernels, and kbench's wgmma variant, use) is the instruction that can reach all of it, so a
// TF32 ceiling measured with mma.sync alone would not bound them.
//
// Each warpgroup of a block issues m64n96k8 TF32 products back to back with A (64 x 8) in registers
// and B (8 x 96) read by the tensor core from one shared tile all the block's warpgroups use. Two
// accumulator sets alternate, and one committed group stays in flight while the next is issued, so
// the tensor core never waits for the issuing threads. Operand values are small and exact in TF32,
// so any number of products stays finite; under tests/emu on the CPU, `result` receives every
// thread's accumulators, which the test checks against the sums they must hold.
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/common/device_ops.cuh"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/wgmma_desc.hpp"
#include "cuda/common/wgmma_ops.cuh"

namespace kbench::gpu::calibration {

inline constexpr int kWgmmaRateWarpgroups = 2;  // per block
inline constexpr int kWgmmaRateThreads = 128 * kWgmmaRateWarpgroups;
inline constexpr int kWgmmaRateAccumulatorSets = 2;  // independent 64 x 96 sets per warpgroup
inline constexpr int kWgmmaRateProductsPerGroup = 4;  // wgmma per committed group, alternating the sets
inline constexpr int kWgmmaRateN = 96;
inline constexpr int kWgmmaRateK = 8;
inline constexpr int kWgmmaRateAccumulators = 48;  // per thread and set: 64 x 96 over 128 threads
inline constexpr std::uint32_t kWgmmaRateBBytes = kWgmmaRateN * kWgmmaRateK * 4;
inline constexpr double kFlopsPerWgmma = 2.0 * 64 * kWgmmaRateN * kWgmmaRateK;

// B in the K-major, unswizzled layout of wgmma_desc.hpp: a column block's two k quads are adjacent
// core matrices (128 bytes apart), column blocks 256 bytes apart.
inline constexpr std::uint32_t kWgmmaRateKStrideBytes = 128;
inline constexpr std::uint32_t kWgmmaRateNStrideBytes = 256;

// Multiples of 2^-12 and 2^-8 below 8: every product and every partial sum of the test's few
// products is exact in fp32.
KBENCH_HD float wgmma_rate_a(int row, int k) { return static_cast<float>(1 + (row + 3 * k) % 5) * 0x1p-8f; }
KBENCH_HD float wgmma_rate_b(int k, int n) { return static_cast<float>(1 + (5 * k + n) % 7) * 0x1p-12f; }

// Byte offset of B's element (k, n) in the shared tile.
KBENCH_HD std::uint32_t wgmma_rate_b_offset(int k, int n) {
  return conv::wgmma_tf32_element_address(conv::wgmma_descriptor(0, kWgmmaRateKStrideBytes, kWgmmaRateNStrideBytes), k,
                                          n);
}

// `groups` committed groups of kWgmmaRateProductsPerGroup products per warpgroup. `result`, when
// not null, receives thread t's set s, accumulator j at [(block * threads + t) * sets * 48 + s * 48 + j].
__global__ void __launch_bounds__(kWgmmaRateThreads) tf32_wgmma_rate_kernel(float* result, int groups) {
  extern __shared__ __align__(16) unsigned char wgmma_rate_smem[];
  const int tid = static_cast<int>(threadIdx.x);
  for (int i = tid; i < kWgmmaRateN * kWgmmaRateK; i += kWgmmaRateThreads) {
    const int k = i / kWgmmaRateN, n = i % kWgmmaRateN;
    *reinterpret_cast<std::uint32_t*>(wgmma_rate_smem + wgmma_rate_b_offset(k, n)) =
        conv::float_bits(wgmma_rate_b(k, n));
  }
  conv::fence_proxy_async_shared();  // the tensor core reads the tile through the async proxy
  __syncthreads();

  // This thread's A fragment (wgmma_ops.cuh): rows 16 w + gid (+ 8), k tig (+ 4).
  const int rank = tid % 128, w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
  const int row = 16 * w + gid;
  const std::uint32_t a[4] = {conv::float_bits(wgmma_rate_a(row, tig)), conv::float_bits(wgmma_rate_a(row + 8, tig)),
                              conv::float_bits(wgmma_rate_a(row, tig + 4)),
                              conv::float_bits(wgmma_rate_a(row + 8, tig + 4))};
  const std::uint64_t desc =
      conv::wgmma_descriptor(conv::shared_address(wgmma_rate_smem), kWgmmaRateKStrideBytes, kWgmmaRateNStrideBytes);

  float acc[kWgmmaRateAccumulatorSets][kWgmmaRateAccumulators];
#pragma unroll
  for (int s = 0; s < kWgmmaRateAccumulatorSets; ++s)
#pragma unroll
    for (int j = 0; j < kWgmmaRateAccumulators; ++j) {
      acc[s][j] = 0.0f;
      conv::wgmma_fence_operand(acc[s][j]);
    }
  for (int g = 0; g < groups; ++g) {
    conv::wgmma_fence();
#pragma unroll
    for (int p = 0; p < kWgmmaRateProductsPerGroup; ++p)
      conv::wgmma_m64n96k8_tf32(acc[p % kWgmmaRateAccumulatorSets], a, desc);
    conv::wgmma_commit();
    // Products into the same accumulators are ordered by the hardware (same shape), so the next
    // group may be issued while this one runs.
    conv::wgmma_wait<1>();
  }
  conv::wgmma_wait<0>();
#pragma unroll
  for (int s = 0; s < kWgmmaRateAccumulatorSets; ++s)
#pragma unroll
    for (int j = 0; j < kWgmmaRateAccumulators; ++j) conv::wgmma_fence_operand(acc[s][j]);

  if (result == nullptr) return;
  float* mine = result + (static_cast<std::int64_t>(blockIdx.x) * kWgmmaRateThreads + tid) * kWgmmaRateAccumulatorSets *
                             kWgmmaRateAccumulators;
#pragma unroll
  for (int s = 0; s < kWgmmaRateAccumulatorSets; ++s)
#pragma unroll
    for (int j = 0; j < kWgmmaRateAccumulators; ++j) mine[s * kWgmmaRateAccumulators + j] = acc[s][j];
}

}  // namespace kbench::gpu::calibration
