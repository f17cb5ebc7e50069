#pragma once
// Estimates the SM clock over a timed sample, as nvbench does: a tiny kernel reads the SM
// cycle counter (clock64) and the global nanosecond timer (%globaltimer) on SM 0 just before
// the sample's start event and again just after its stop event; cycles / nanoseconds is the
// mean SM clock across the sample. Both probe kernels lie outside the event-timed region.
// NVML is not linked, so this is how kbench sees throttling (power or thermal clock drops).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>

#include "runtime/device_buffer.hpp"

namespace kbench::gpu {

class SmClockProbe {
 public:
  explicit SmClockProbe(int device);

  void start(cudaStream_t stream);  // enqueue before the start event
  void stop(cudaStream_t stream);   // enqueue after the stop event

  // After the stream has been synchronised: the mean SM clock between start and stop, or
  // nullopt when it cannot be told (no probe block landed on SM 0, or the interval was too
  // short for the global timer's microsecond-scale granularity to give a 5% estimate).
  std::optional<double> clock_hz() const;

  double max_clock_hz() const { return max_clock_hz_; }

  // A sample counts as throttled when its clock is known and below this fraction of the
  // device's maximum (boost) clock. nvbench uses 0.75; kbench is stricter, see docs/gpu-runtime.md.
  static constexpr double kThrottleFraction = 0.90;
  bool throttled() const;

 private:
  int sms_ = 1;
  double max_clock_hz_ = 0;
  // [0] start globaltimer ns, [1] start clock64, [2] stop globaltimer ns, [3] stop clock64.
  DeviceBuffer<unsigned long long> stamps_;
};

// The clock estimate from two (ns, cycles) stamps; nullopt when a stamp is missing (zero)
// or the interval is shorter than `min_interval_ns`. Pure arithmetic, tested on the host.
std::optional<double> clock_from_stamps(std::uint64_t start_ns, std::uint64_t start_cycles, std::uint64_t stop_ns,
                                        std::uint64_t stop_cycles, std::uint64_t min_interval_ns);

}  // namespace kbench::gpu
