#include "measure/measure.hpp"

#include <algorithm>
#include <chrono>

namespace kbench {

Measurement measure(PreparedRun& run, const MeasureOptions& options, const std::atomic<bool>* stop,
                    const SampleCallback& on_sample) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };

  Measurement m;
  for (int i = 0; i < options.warmups; ++i) run.run();
  for (int i = 0; i < options.discarded; ++i) (void)run.timed_run(options.timing);

  // The budget is checked between samples once the minimum is in, so the overshoot is at most one
  // sample past it.
  const int minimum = std::min(options.min_samples, options.iterations);
  while (static_cast<int>(m.samples_s.size()) < options.iterations) {
    const Sample sample = run.timed_run(options.timing);
    m.samples_s.push_back(sample.seconds);
    if (sample.throttled) ++m.throttled_samples;
    if (on_sample) on_sample(static_cast<int>(m.samples_s.size()));
    if (stop && stop->load()) break;
    if (static_cast<int>(m.samples_s.size()) >= minimum && elapsed() >= options.time_budget_s &&
        static_cast<int>(m.samples_s.size()) < options.iterations) {
      m.budget_exhausted = true;
      break;
    }
  }
  m.stats = summarize(m.samples_s);
  m.wall_s = elapsed();
  return m;
}

}  // namespace kbench
