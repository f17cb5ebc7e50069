// `kbench calibrate`'s TF32 wgmma rate. Built for sm_90a only, with the wgmma implicit GEMM
// (kernels/CMakeLists.txt): wgmma.mma_async exists on no other target, so calibrate_device calls
// this on compute capability 9.0 devices only.
#include "calibrate/calibrate_kernels.hpp"
#include "calibrate/rate_timing.hpp"
#include "calibrate/tf32_wgmma_rate_kernel.cuh"

namespace kbench::gpu {

namespace {

// ~1.7 ms a launch on an H200 at the datasheet rate: long next to launch overhead, short next to
// the calibration's few seconds.
constexpr int kWgmmaGroups = 1 << 12;

}  // namespace

RateMeasurement measure_tf32_wgmma_rate(int repetitions) {
  using namespace calibration;
  const unsigned int blocks = one_full_wave(tf32_wgmma_rate_kernel, kWgmmaRateThreads, kWgmmaRateBBytes);
  const auto launch = [&](cudaStream_t stream) {
    tf32_wgmma_rate_kernel<<<blocks, kWgmmaRateThreads, kWgmmaRateBBytes, stream>>>(nullptr, kWgmmaGroups);
    KBENCH_CUDA_CHECK_LAUNCH();
  };
  const double warpgroups = static_cast<double>(blocks) * kWgmmaRateWarpgroups;
  const double flops = kFlopsPerWgmma * kWgmmaRateProductsPerGroup * kWgmmaGroups * warpgroups;
  return rates(flops, time_repetitions(launch, repetitions));
}

}  // namespace kbench::gpu
