#include "runtime/sm_clock_probe.hpp"

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

// The global timer ticks at about 1 MHz on recent parts: 20 us keeps the estimate within 5%.
constexpr std::uint64_t kMinIntervalNs = 20'000;

// One single-thread block per SM; whichever lands on SM 0 writes, so both stamps come from
// the same SM's cycle counter (counters of different SMs are not synchronised).
__global__ void stamp_kernel(unsigned long long* ns, unsigned long long* cycles) {
  unsigned int smid = 0;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (smid != 0) return;
  unsigned long long now_ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now_ns));
  *cycles = static_cast<unsigned long long>(clock64());
  *ns = now_ns;
}

}  // namespace

std::optional<double> clock_from_stamps(std::uint64_t start_ns, std::uint64_t start_cycles, std::uint64_t stop_ns,
                                        std::uint64_t stop_cycles, std::uint64_t min_interval_ns) {
  if (start_ns == 0 || stop_ns == 0 || start_cycles == 0 || stop_cycles == 0) return std::nullopt;
  if (stop_ns <= start_ns || stop_cycles <= start_cycles) return std::nullopt;
  if (stop_ns - start_ns < min_interval_ns) return std::nullopt;
  return static_cast<double>(stop_cycles - start_cycles) / (static_cast<double>(stop_ns - start_ns) * 1e-9);
}

SmClockProbe::SmClockProbe(int device) : stamps_(4) {
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
  int khz = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  max_clock_hz_ = static_cast<double>(khz) * 1e3;
}

void SmClockProbe::start(cudaStream_t stream) {
  KBENCH_CUDA_CHECK(cudaMemsetAsync(stamps_.data(), 0, stamps_.bytes(), stream));
  stamp_kernel<<<static_cast<unsigned int>(sms_), 1, 0, stream>>>(stamps_.data() + 0, stamps_.data() + 1);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void SmClockProbe::stop(cudaStream_t stream) {
  stamp_kernel<<<static_cast<unsigned int>(sms_), 1, 0, stream>>>(stamps_.data() + 2, stamps_.data() + 3);
  KBENCH_CUDA_CHECK_LAUNCH();
}

std::optional<double> SmClockProbe::clock_hz() const {
  unsigned long long host[4] = {};
  KBENCH_CUDA_CHECK(cudaMemcpy(host, stamps_.data(), sizeof host, cudaMemcpyDeviceToHost));
  return clock_from_stamps(host[0], host[1], host[2], host[3], kMinIntervalNs);
}

bool SmClockProbe::throttled() const {
  const auto clock = clock_hz();
  return clock && max_clock_hz_ > 0 && *clock < kThrottleFraction * max_clock_hz_;
}

}  // namespace kbench::gpu
