#pragma once
// The sampling loop: warm-ups, then timed runs until the iteration count or the time budget.
#include <atomic>
#include <functional>
#include <vector>

#include "backend/backend.hpp"
#include "measure/statistics.hpp"

namespace kbench {

struct MeasureOptions {
  int warmups = 3;            // untimed runs before sampling (compilation, caches, clocks)
  int discarded = 1;          // timed runs thrown away, as the KernelBench protocol does
  int iterations = 100;       // samples wanted
  // Samples taken whatever the budget says (fewer only when `iterations` is smaller, or on Ctrl-C): a
  // median of one or two samples is no result. The runner admits a run only if these fit the budget.
  int min_samples = 3;
  double time_budget_s = 30;  // stop sampling early once this much wall time has gone by
  TimingOptions timing;
};

struct Measurement {
  std::vector<double> samples_s;  // kept samples, in order
  Statistics stats;
  int throttled_samples = 0;
  bool budget_exhausted = false;  // fewer than `iterations` samples because the budget ran out
  double wall_s = 0;              // wall time of the whole loop, warm-ups included
};

// Called after each kept sample with the number taken so far (progress displays).
using SampleCallback = std::function<void(int samples_taken)>;

// `stop` (may be null) is polled between samples: an interrupted loop keeps the samples it has.
Measurement measure(PreparedRun& run, const MeasureOptions& options, const std::atomic<bool>* stop = nullptr,
                    const SampleCallback& on_sample = {});

}  // namespace kbench
