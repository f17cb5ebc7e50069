#pragma once
// Estimates the SM clock over a timed sample, as nvbench does: a tiny kernel reads the SM
// cycle counter (clock64) and the global nanosecond timer (%globaltimer) just before the sample's
// start event and again just after its stop event; cycles / nanoseconds is the mean SM clock
// across the sample. Each SM keeps its own pair of stamps (cycle counters of different SMs are
// not synchronised, and PTX does not promise which SMs a block lands on), and any SM stamped at
// both ends gives the estimate. Both probe kernels lie outside the event-timed region.
// NVML is not linked, so this is how kbench sees throttling (power or thermal clock drops).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <span>

#include "runtime/device_buffer.hpp"

namespace kbench::gpu {

class SmClockProbe {
 public:
  explicit SmClockProbe(int device);

  void start(cudaStream_t stream);  // enqueue before the start event
  void stop(cudaStream_t stream);   // enqueue after the stop event

  // After the stream has been synchronised: the mean SM clock between start and stop, or
  // nullopt when it cannot be told (no SM was stamped at both ends, or the interval was too
  // short for the global timer's microsecond-scale granularity to give a 5% estimate).
  std::optional<double> clock_hz() const;

  // SM ids the stamps have room for (ids need not be contiguous; a block on a higher id stamps nothing).
  static constexpr int kSmSlots = 512;

  double max_clock_hz() const { return max_clock_hz_; }

  // A sample counts as throttled when its clock is known and below this fraction of the
  // device's maximum (boost) clock. nvbench uses 0.75; kbench is stricter, see docs/gpu-runtime.md.
  static constexpr double kThrottleFraction = 0.90;
  bool throttled() const;

 private:
  int sms_ = 1;
  double max_clock_hz_ = 0;
  // Per SM id s: [4s] start globaltimer ns, [4s+1] start clock64, [4s+2] stop ns, [4s+3] stop clock64.
  DeviceBuffer<unsigned long long> stamps_;
  // Per SM id: whether a start (first kSmSlots) or stop stamp was taken; the first block on an SM wins.
  DeviceBuffer<unsigned int> claims_;
};

// The clock estimate from two (ns, cycles) stamps; nullopt when a stamp is missing (zero)
// or the interval is shorter than `min_interval_ns`. Pure arithmetic, tested on the host.
std::optional<double> clock_from_stamps(std::uint64_t start_ns, std::uint64_t start_cycles, std::uint64_t stop_ns,
                                        std::uint64_t stop_cycles, std::uint64_t min_interval_ns);

// The median estimate over every SM whose four stamps (laid out as SmClockProbe keeps them) give
// one; nullopt when none does. Pure, tested on the host.
std::optional<double> clock_from_sm_stamps(std::span<const std::uint64_t> stamps, std::uint64_t min_interval_ns);

}  // namespace kbench::gpu
