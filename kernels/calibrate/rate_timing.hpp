#pragma once
// What every calibration measurement shares: event timing of repeated launches, the rate of the
// best repetition, and a grid of exactly one full wave of resident blocks.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "calibrate/calibrate_kernels.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

// Runs `launch` once untimed, then `repetitions` times between events; returns seconds each.
std::vector<double> time_repetitions(const std::function<void(cudaStream_t)>& launch, int repetitions);

// `work` (bytes or FLOPs) over the fastest and the median repetition.
RateMeasurement rates(double work, std::vector<double> seconds);

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
