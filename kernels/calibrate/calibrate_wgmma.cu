// `kbench calibrate`'s wgmma rates (TF32, fp16, bf16). Built for sm_90a only, with the wgmma implicit GEMM
// (kernels/CMakeLists.txt): wgmma.mma_async exists on no other target, so calibrate_device calls
// this on compute capability 9.0 devices only.
#include "calibrate/calibrate_kernels.hpp"
#include "calibrate/rate_timing.hpp"
#include "calibrate/wgmma_rate_kernel.cuh"

namespace kbench::gpu {

namespace {

// ~1.7 ms a launch of the n96 form on an H200 at the datasheet rate (~4.5 ms for n256): long next
// to launch overhead, short next to the calibration's few seconds.
constexpr int kWgmmaGroups = 1 << 12;

template <class Form>
RateMeasurement measure_form(int repetitions) {
  using namespace calibration;
  const auto kernel = wgmma_rate_kernel<Form>;
  const unsigned int blocks = one_full_wave(kernel, kWgmmaRateThreads, kWgmmaRateSmemBytes<Form>);
  const auto launch = [&](cudaStream_t stream) {
    kernel<<<blocks, kWgmmaRateThreads, kWgmmaRateSmemBytes<Form>, stream>>>(nullptr, kWgmmaGroups);
    KBENCH_CUDA_CHECK_LAUNCH();
  };
  const double warpgroups = static_cast<double>(blocks) * kWgmmaRateWarpgroups;
  const double flops = kWgmmaRateFlopsPerProduct<Form> * kWgmmaRateProductsPerGroup * kWgmmaGroups * warpgroups;
  return rates(flops, time_repetitions(launch, repetitions));
}

}  // namespace

WgmmaRates measure_wgmma_rates(int repetitions) {
  return {measure_form<calibration::RegistersA_N96>(repetitions), measure_form<calibration::SharedA_N256>(repetitions),
          measure_form<calibration::SharedA_N256_F16>(repetitions),
          measure_form<calibration::SharedA_N256_BF16>(repetitions)};
}

}  // namespace kbench::gpu
