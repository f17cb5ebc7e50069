#pragma once
// What every calibration measurement shares: event timing of repeated launches, the rate of the
// best repetition, and a grid of exactly one full wave of resident blocks.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "calibrate/calibrate_kernels.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

// An idle GPU sits near a sixth of its boost clock and ramps up over tens of milliseconds: each
// measurement first keeps the device busy for this long, so no rate is read before the clock is up.
constexpr double kWarmUpSeconds = 0.2;

// Calls launch_and_wait until `min_seconds` have passed by `now_seconds` (at least once); returns
// the number of calls. Pure given its callables (the host tests give it a fake clock).
int warm_up(const std::function<void()>& launch_and_wait, const std::function<double()>& now_seconds,
            double min_seconds);

struct TimedRepetitions {
  std::vector<double> seconds;     // one per repetition
  std::optional<double> clock_hz;  // mean SM clock across them (SmClockProbe)
};

// Runs `launch` untimed for kWarmUpSeconds of wall time, then `repetitions` times between events.
TimedRepetitions time_repetitions(const std::function<void(cudaStream_t)>& launch, int repetitions);

// `work` (bytes or FLOPs) over the fastest and the median repetition.
RateMeasurement rates(double work, std::vector<double> seconds);
RateMeasurement rates(double work, const TimedRepetitions& timed);

int current_device_attribute(cudaDeviceAttr attr);

// One full wave: as many blocks of `threads` as can be resident at once on every SM, given the
// kernel's registers and shared memory (the mma kernel's 42 registers allow fewer than 8 per SM). A
// second, partial wave would run part of the time on idle SMs and understate the rate.
template <class Kernel>
unsigned int one_full_wave(Kernel kernel, int threads, std::size_t dynamic_smem_bytes = 0) {
  int per_sm = 0;
  KBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem_bytes));
  const int sms = current_device_attribute(cudaDevAttrMultiProcessorCount);
  return static_cast<unsigned int>(sms * std::max(1, per_sm));
}

}  // namespace kbench::gpu
