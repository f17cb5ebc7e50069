#pragma once
#include <span>

namespace kbench {

// Summary of timing samples, in seconds. Percentiles interpolate linearly between ranks.
struct Statistics {
  int count = 0;
  double mean = 0, median = 0, stdev = 0, min = 0, max = 0, p10 = 0, p90 = 0;
};

Statistics summarize(std::span<const double> samples);
double percentile(std::span<const double> sorted_samples, double fraction);  // fraction in [0, 1]

}  // namespace kbench
