#include "measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace kbench {

double percentile(std::span<const double> sorted, double fraction) {
  if (sorted.empty()) return 0;
  const double rank = std::clamp(fraction, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const auto above = std::min(below + 1, sorted.size() - 1);
  const double weight = rank - static_cast<double>(below);
  return sorted[below] * (1 - weight) + sorted[above] * weight;
}

Statistics summarize(std::span<const double> samples) {
  Statistics s;
  if (samples.empty()) return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.count = static_cast<int>(sorted.size());
  s.min = sorted.front();
  s.max = sorted.back();
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.count);
  s.median = percentile(sorted, 0.5);
  s.p10 = percentile(sorted, 0.1);
  s.p90 = percentile(sorted, 0.9);
  if (s.count > 1) {
    double squares = 0;
    for (double x : sorted) squares += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(squares / static_cast<double>(s.count - 1));  // sample standard deviation
  }
  return s;
}

}  // namespace kbench
