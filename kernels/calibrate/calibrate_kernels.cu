#include "calibrate/calibrate_kernels.hpp"
#include "calibrate/rate_timing.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu {

namespace {

constexpr int kThreads = 256;

// ---- copy ---------------------------------------------------------------------------------

// Four independent 16-byte loads in flight per thread before the first store.
__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::int64_t count) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    const float4 a = in[i];
    const float4 b = in[i + stride];
    const float4 c = in[i + 2 * stride];
    const float4 d = in[i + 3 * stride];
    out[i] = a;
    out[i + stride] = b;
    out[i + 2 * stride] = c;
    out[i + 3 * stride] = d;
  }
  for (; i < count; i += stride) out[i] = in[i];
}

// ---- FP32 FFMA ----------------------------------------------------------------------------

constexpr int kFfmaChains = 8;  // independent dependency chains per thread
constexpr int kFfmaIterations = 1 << 16;

__global__ void ffma_kernel(float* sink, float seed) {
  float acc[kFfmaChains];
#pragma unroll
  for (int c = 0; c < kFfmaChains; ++c) acc[c] = seed + static_cast<float>(threadIdx.x + c);
  // acc = acc * m + a stays bounded (|m| < 1), so no value goes denormal or infinite.
  const float m = 0.9999f;
  const float a = 1e-3f * seed;
  for (int i = 0; i < kFfmaIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kFfmaChains; ++c) acc[c] = fmaf(acc[c], m, a);
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kFfmaChains; ++c) sum += acc[c];
  // Never true for the seed used; keeps the compiler from removing the loop.
  if (sum == -1.0f) *sink = sum;
}

// ---- TF32 mma.sync ------------------------------------------------------------------------

constexpr int kMmaChains = 8;  // independent accumulator tiles per warp
constexpr int kMmaIterations = 1 << 14;
constexpr double kFlopsPerMma = 2.0 * 16 * 8 * 8;  // m16n8k8

__global__ void tf32_mma_kernel(float* sink, float seed) {
  const float a_value = seed * 1e-3f * static_cast<float>(1 + (threadIdx.x & 7));
  const float b_value = seed * 1e-3f;
  std::uint32_t a[4], b[2];
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a[0]) : "f"(a_value));
  a[1] = a[2] = a[3] = a[0];
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b[0]) : "f"(b_value));
  b[1] = b[0];
  float acc[kMmaChains][4];
#pragma unroll
  for (int c = 0; c < kMmaChains; ++c)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[c][j] = 0.0f;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // TF32 mma needs sm_80 or later; calibrate_device skips it there
#else
  for (int i = 0; i < kMmaIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kMmaChains; ++c) {
      asm volatile(
          "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
          : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
  }
#endif
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kMmaChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (sum == -1.0f) *sink = sum;
}

// ---- fp16 / bf16 mma.sync ----------------------------------------------------------------

constexpr double kFlopsPerHalfMma = 2.0 * 16 * 8 * 16;  // m16n8k16
// 2^-10 in each format (two per 32-bit register): 2^14 iterations x 16 products of 2^-20 keep every
// accumulator below 1, so nothing overflows or goes denormal.
constexpr std::uint32_t kFp16Pair = 0x14001400u;
constexpr std::uint32_t kBf16Pair = 0x3a803a80u;

template <bool kBf16>
__global__ void half_mma_kernel(float* sink, std::uint32_t operand_pair) {
  const std::uint32_t a[4] = {operand_pair, operand_pair, operand_pair, operand_pair};
  const std::uint32_t b[2] = {operand_pair, operand_pair};
  float acc[kMmaChains][4];
#pragma unroll
  for (int c = 0; c < kMmaChains; ++c)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[c][j] = 0.0f;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // bf16 mma (and this form of fp16's) needs sm_80 or later; calibrate_device skips it there
#else
  for (int i = 0; i < kMmaIterations; ++i) {
#pragma unroll
    for (int c = 0; c < kMmaChains; ++c) {
      if constexpr (kBf16)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
  }
#endif
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kMmaChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  if (sum == -1.0f) *sink = sum;
}

template <bool kBf16>
RateMeasurement measure_half_mma_rate(int repetitions) {
  DeviceBuffer<float> sink(1);
  const auto kernel = half_mma_kernel<kBf16>;
  const unsigned int blocks = one_full_wave(kernel, kThreads);
  const std::uint32_t pair = kBf16 ? kBf16Pair : kFp16Pair;
  const auto launch = [&](cudaStream_t stream) {
    kernel<<<blocks, kThreads, 0, stream>>>(sink.data(), pair);
    KBENCH_CUDA_CHECK_LAUNCH();
  };
  const double warps = static_cast<double>(blocks) * (kThreads / 32);
  const double flops = kFlopsPerHalfMma * kMmaChains * kMmaIterations * warps;
  return rates(flops, time_repetitions(launch, repetitions));
}

}  // namespace

RateMeasurement measure_fp16_mma_rate(int repetitions) { return measure_half_mma_rate<false>(repetitions); }
RateMeasurement measure_bf16_mma_rate(int repetitions) { return measure_half_mma_rate<true>(repetitions); }

RateMeasurement measure_copy_bandwidth(std::int64_t bytes, int repetitions) {
  const std::int64_t vectors = bytes / static_cast<std::int64_t>(sizeof(float4));
  DeviceBuffer<float4> in(vectors), out(vectors);
  // Real data, not whatever the allocator left: some memory systems compress zeros.
  KBENCH_CUDA_CHECK(cudaMemset(in.data(), 0x3c, in.bytes()));
  const unsigned int blocks = one_full_wave(copy_kernel, kThreads) * 4;  // grid-stride; several waves are fine here
  const auto launch = [&](cudaStream_t stream) {
    copy_kernel<<<blocks, kThreads, 0, stream>>>(in.data(), out.data(), vectors);
    KBENCH_CUDA_CHECK_LAUNCH();
  };
  return rates(2.0 * static_cast<double>(in.bytes()), time_repetitions(launch, repetitions));
}

RateMeasurement measure_fp32_ffma_rate(int repetitions) {
  DeviceBuffer<float> sink(1);
  const unsigned int blocks = one_full_wave(ffma_kernel, kThreads);
  const auto launch = [&](cudaStream_t stream) {
    ffma_kernel<<<blocks, kThreads, 0, stream>>>(sink.data(), 1.0f);
    KBENCH_CUDA_CHECK_LAUNCH();
  };
  const double flops = 2.0 * kFfmaChains * kFfmaIterations * static_cast<double>(blocks) * kThreads;
  return rates(flops, time_repetitions(launch, repetitions));
}

RateMeasurement measure_tf32_mma_rate(int repetitions) {
  DeviceBuffer<float> sink(1);
  const unsigned int blocks = one_full_wave(tf32_mma_kernel, kThreads);
  const auto launch = [&](cudaStream_t stream) {
    tf32_mma_kernel<<<blocks, kThreads, 0, stream>>>(sink.data(), 1.0f);
    KBENCH_CUDA_CHECK_LAUNCH();
  };
  const double warps = static_cast<double>(blocks) * (kThreads / 32);
  const double flops = kFlopsPerMma * kMmaChains * kMmaIterations * warps;
  return rates(flops, time_repetitions(launch, repetitions));
}

}  // namespace kbench::gpu
