#pragma once
// Whether NEW is faster or slower than BASE, from the raw samples of both. Two conditions make a
// verdict: the medians differ by at least a minimum relative change (the threshold), and a rank
// test says the difference is unlikely to be noise (p < alpha). Each alone raises false alarms:
// a big but noisy change may be chance, and a tiny but consistent one is not worth a red CI.
#include <optional>
#include <span>
#include <string_view>

namespace kbench::diff {

enum class Verdict {
  faster,   // median down by at least the threshold, and significant
  slower,   // median up by at least the threshold, and significant
  same,     // the medians differ by less than the threshold
  unclear,  // the medians differ by the threshold or more, but the samples cannot tell it from noise
};
std::string_view to_string(Verdict verdict);

struct VerdictOptions {
  double threshold = 0.05;  // minimum |relative change| of the median: 0.05 = 5%
  double alpha = 0.05;      // significance level of the two-sided rank test
};

struct TimingComparison {
  int base_count = 0;
  int new_count = 0;
  double base_median_s = 0;
  double new_median_s = 0;
  double change = 0;  // new median / base median - 1: +0.30 = 30% slower, -0.25 = 25% faster
  double p_value = 1;
  bool exact_p = false;
  Verdict verdict = Verdict::unclear;
};

// Both sides need at least one sample with a positive median; nullopt otherwise.
// A change equal to the threshold up to floating-point error (1.05 / 1.00 - 1 is not exactly 0.05)
// counts as reaching it: 5% slower is caught at --threshold 5.
std::optional<TimingComparison> compare_samples(std::span<const double> base_samples_s,
                                                std::span<const double> new_samples_s, const VerdictOptions& options);

}  // namespace kbench::diff
