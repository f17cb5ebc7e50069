// The kernels' fp16/bf16 conversions on the device (common/element.hpp: the hardware's cvt) against
// core/half.hpp's definition-level code, which the CPU emulation and the reference use: every fp16 and
// bf16 bit pattern widened, and narrowing of every fp16/bf16 value, the midpoints between neighbours
// (ties to even), one fp32 ulp either side of them, the overflow and subnormal boundaries and 2^20
// random fp32 patterns. The same bits everywhere; NaN stays NaN (its payload may differ).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/half.hpp"
#include "cuda/common/element.hpp"
#include "dry_run.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"
#include "test_seed.hpp"

namespace {

using kbench::DType;
using kbench::gpu::DeviceBuffer;
using kbench::gpu::conv::Element;

template <DType kType>
__global__ void widen_kernel(const std::uint16_t* in, float* out, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = Element<kType>::widen(in[i]);
}

template <DType kType>
__global__ void narrow_kernel(const float* in, std::uint16_t* out, std::int64_t n) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = Element<kType>::narrow(in[i]);
}

template <class In, class Out>
std::vector<Out> run_on_device(const std::vector<In>& in, void (*kernel)(const In*, Out*, std::int64_t)) {
  const auto n = static_cast<std::int64_t>(in.size());
  DeviceBuffer<In> d_in(n);
  DeviceBuffer<Out> d_out(n);
  KBENCH_CUDA_CHECK(cudaMemcpy(d_in.data(), in.data(), d_in.bytes(), cudaMemcpyHostToDevice));
  kernel<<<1024, 256>>>(d_in.data(), d_out.data(), n);
  KBENCH_CUDA_CHECK_LAUNCH();
  KBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<Out> out(in.size());
  KBENCH_CUDA_CHECK(cudaMemcpy(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost));
  return out;
}

float widen_on_host(DType t, std::uint16_t bits) {
  return t == DType::fp16 ? kbench::float_from_fp16_bits(bits) : kbench::float_from_bf16_bits(bits);
}
std::uint16_t narrow_on_host(DType t, float v) {
  return t == DType::fp16 ? kbench::fp16_bits_from_float(v) : kbench::bf16_bits_from_float(v);
}

// Every value of the format, the midpoints between consecutive ones, a float ulp either side of each
// midpoint, and random fp32 bit patterns.
std::vector<float> narrowing_cases(DType t) {
  std::vector<float> cases;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const float v = widen_on_host(t, static_cast<std::uint16_t>(bits));
    cases.push_back(v);
    const float next = widen_on_host(t, static_cast<std::uint16_t>(bits + 1));
    if (!std::isfinite(v) || !std::isfinite(next) || bits == 0x7fffu || bits == 0xffffu) continue;
    const float mid = static_cast<float>((static_cast<double>(v) + static_cast<double>(next)) / 2);
    cases.push_back(mid);
    cases.push_back(std::nextafter(mid, INFINITY));
    cases.push_back(std::nextafter(mid, -INFINITY));
  }
  std::mt19937_64 rng(kbench::testing::test_seed(2480));
  for (int i = 0; i < (1 << 20); ++i) {
    const auto bits = static_cast<std::uint32_t>(rng());
    float v = 0;
    std::memcpy(&v, &bits, sizeof v);
    cases.push_back(v);
  }
  return cases;
}

template <DType kType>
void check_conversions() {
  std::vector<std::uint16_t> patterns(0x10000);
  for (std::uint32_t i = 0; i < 0x10000u; ++i) patterns[i] = static_cast<std::uint16_t>(i);
  const std::vector<float> widened = run_on_device<std::uint16_t, float>(patterns, widen_kernel<kType>);
  int widen_mismatches = 0;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const float want = widen_on_host(kType, patterns[i]);
    const bool same = std::isnan(want) ? std::isnan(widened[i]) : std::memcmp(&want, &widened[i], 4) == 0;
    widen_mismatches += same ? 0 : 1;
  }
  CHECK(widen_mismatches == 0);

  const std::vector<float> cases = narrowing_cases(kType);
  const std::vector<std::uint16_t> narrowed = run_on_device<float, std::uint16_t>(cases, narrow_kernel<kType>);
  int narrow_mismatches = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::uint16_t want = narrow_on_host(kType, cases[i]);
    const bool same = std::isnan(cases[i]) ? std::isnan(widen_on_host(kType, narrowed[i])) : narrowed[i] == want;
    if (!same && narrow_mismatches++ < 5)
      MESSAGE("narrow " << cases[i] << ": device " << narrowed[i] << ", host " << want);
  }
  CHECK(narrow_mismatches == 0);
}

}  // namespace

TEST_CASE("element conversions: the device's cvt gives core/half.hpp's bits, fp16 and bf16") {
  if (kbench::gpu_tests::dry_run()) return;  // nothing to check without launching
  check_conversions<DType::fp16>();
  check_conversions<DType::bf16>();
}
