#include "runtime/sm_clock_probe.hpp"

#include <algorithm>
#include <vector>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

// The global timer ticks at about 1 MHz on recent parts: 20 us keeps the estimate within 5%.
constexpr std::uint64_t kMinIntervalNs = 20'000;

// One single-thread block per SM; the first block to land on an SM stamps that SM's slot, so a
// slot's start and stop stamps each come from one block and one SM's cycle counter. `offset` is 0
// for the start stamps and 2 for the stop stamps.
__global__ void stamp_kernel(unsigned long long* stamps, unsigned int* claims, int offset) {
  unsigned int smid = 0;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (smid >= static_cast<unsigned int>(SmClockProbe::kSmSlots)) return;
  if (atomicCAS(&claims[(offset / 2) * SmClockProbe::kSmSlots + smid], 0u, 1u) != 0u) return;
  unsigned long long now_ns = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now_ns));
  stamps[4 * smid + offset + 1] = static_cast<unsigned long long>(clock64());
  stamps[4 * smid + offset] = now_ns;
}

}  // namespace

std::optional<double> clock_from_stamps(std::uint64_t start_ns, std::uint64_t start_cycles, std::uint64_t stop_ns,
                                        std::uint64_t stop_cycles, std::uint64_t min_interval_ns) {
  if (start_ns == 0 || stop_ns == 0 || start_cycles == 0 || stop_cycles == 0) return std::nullopt;
  if (stop_ns <= start_ns || stop_cycles <= start_cycles) return std::nullopt;
  if (stop_ns - start_ns < min_interval_ns) return std::nullopt;
  return static_cast<double>(stop_cycles - start_cycles) / (static_cast<double>(stop_ns - start_ns) * 1e-9);
}

std::optional<double> clock_from_sm_stamps(std::span<const std::uint64_t> stamps, std::uint64_t min_interval_ns) {
  std::vector<double> clocks;
  for (std::size_t s = 0; s + 3 < stamps.size(); s += 4)
    if (const auto clock = clock_from_stamps(stamps[s], stamps[s + 1], stamps[s + 2], stamps[s + 3], min_interval_ns))
      clocks.push_back(*clock);
  if (clocks.empty()) return std::nullopt;
  std::nth_element(clocks.begin(), clocks.begin() + static_cast<std::ptrdiff_t>(clocks.size() / 2), clocks.end());
  return clocks[clocks.size() / 2];
}

SmClockProbe::SmClockProbe(int device) : stamps_(4 * kSmSlots), claims_(2 * kSmSlots) {
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
  int khz = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  max_clock_hz_ = static_cast<double>(khz) * 1e3;
}

void SmClockProbe::start(cudaStream_t stream) {
  KBENCH_CUDA_CHECK(cudaMemsetAsync(stamps_.data(), 0, stamps_.bytes(), stream));
  KBENCH_CUDA_CHECK(cudaMemsetAsync(claims_.data(), 0, claims_.bytes(), stream));
  stamp_kernel<<<static_cast<unsigned int>(sms_), 1, 0, stream>>>(stamps_.data(), claims_.data(), 0);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void SmClockProbe::stop(cudaStream_t stream) {
  stamp_kernel<<<static_cast<unsigned int>(sms_), 1, 0, stream>>>(stamps_.data(), claims_.data(), 2);
  KBENCH_CUDA_CHECK_LAUNCH();
}

std::optional<double> SmClockProbe::clock_hz() const {
  std::vector<std::uint64_t> host(static_cast<std::size_t>(stamps_.size()));
  KBENCH_CUDA_CHECK(cudaMemcpy(host.data(), stamps_.data(), stamps_.bytes(), cudaMemcpyDeviceToHost));
  return clock_from_sm_stamps(host, kMinIntervalNs);
}

bool SmClockProbe::throttled() const {
  const auto clock = clock_hz();
  return clock && max_clock_hz_ > 0 && *clock < kThrottleFraction * max_clock_hz_;
}

}  // namespace kbench::gpu
