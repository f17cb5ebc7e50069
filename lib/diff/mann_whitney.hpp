#pragma once
// The Mann-Whitney U test (Wilcoxon rank-sum), two-sided: do two sets of timing samples come from
// the same distribution? A rank test, because timing noise is skewed (a few slow outliers) and a
// t-test would let one outlier decide. google/benchmark's compare.py uses the same test.
#include <span>

namespace kbench::diff {

struct RankTest {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, ties counting one half
  double p_value = 1;  // two-sided; 1 when there is nothing to test (an empty side, every value tied)
  bool exact = false;  // from the exact null distribution, else the normal approximation
};

// Samples this small (n1 * n2 at most this, no ties) get the exact p-value: the normal
// approximation is off by a factor of two and more in the tails for a handful of samples.
inline constexpr int kExactLimitProduct = 2500;

// Exact when there are no ties and n1 * n2 <= kExactLimitProduct; otherwise the normal
// approximation with the tie correction of the variance and a continuity correction of 0.5,
// as scipy.stats.mannwhitneyu computes it (method="asymptotic", use_continuity=True).
RankTest mann_whitney_u(std::span<const double> first, std::span<const double> second);

// P(U <= u) under the null hypothesis for samples of sizes n1 and n2 without ties.
double exact_u_cdf(int u, int n1, int n2);

}  // namespace kbench::diff
