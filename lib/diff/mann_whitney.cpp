#include "diff/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace kbench::diff {

namespace {

struct Ranked {
  double rank_sum_first = 0;  // sum of the first sample's ranks (1-based, ties averaged)
  double tie_term = 0;        // sum over tie groups of t^3 - t
  bool has_ties = false;
};

Ranked rank(std::span<const double> first, std::span<const double> second) {
  struct Entry {
    double value;
    bool from_first;
  };
  std::vector<Entry> all;
  all.reserve(first.size() + second.size());
  for (double v : first) all.push_back({v, true});
  for (double v : second) all.push_back({v, false});
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.value < b.value; });

  Ranked out;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = start + 1;
    while (end < all.size() && all[end].value == all[start].value) ++end;
    const double tied = static_cast<double>(end - start);
    // Ranks start+1 .. end share their average.
    const double average_rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (std::size_t i = start; i < end; ++i)
      if (all[i].from_first) out.rank_sum_first += average_rank;
    if (tied > 1) {
      out.has_ties = true;
      out.tie_term += tied * tied * tied - tied;
    }
    start = end;
  }
  return out;
}

// P(U <= u) for every u in [0, n1*n2], by the recurrence on the last (largest) element: it belongs
// to the first sample with probability m/(m+n), and then adds n to U, else to the second sample.
//   p(u; m, n) = m/(m+n) p(u - n; m - 1, n) + n/(m+n) p(u; m, n - 1)
// Probabilities rather than counts keep every value in [0, 1]: no overflow for any size.
std::vector<double> exact_u_distribution(int n1, int n2) {
  // column[m] = distribution of U for sizes (m, n), for the current n.
  std::vector<std::vector<double>> column(static_cast<std::size_t>(n1) + 1);
  for (int m = 0; m <= n1; ++m) column[static_cast<std::size_t>(m)] = {1.0};  // n = 0: U is always 0
  for (int n = 1; n <= n2; ++n) {
    std::vector<std::vector<double>> next(static_cast<std::size_t>(n1) + 1);
    next[0] = {1.0};  // m = 0: U is always 0
    for (int m = 1; m <= n1; ++m) {
      std::vector<double> p(static_cast<std::size_t>(m * n) + 1, 0.0);
      const double with_first = static_cast<double>(m) / (m + n);
      const std::vector<double>& shorter_first = next[static_cast<std::size_t>(m - 1)];  // (m-1, n)
      const std::vector<double>& shorter_second = column[static_cast<std::size_t>(m)];   // (m, n-1)
      for (std::size_t u = 0; u < shorter_first.size(); ++u)
        p[u + static_cast<std::size_t>(n)] += with_first * shorter_first[u];
      for (std::size_t u = 0; u < shorter_second.size(); ++u) p[u] += (1 - with_first) * shorter_second[u];
      next[static_cast<std::size_t>(m)] = std::move(p);
    }
    column = std::move(next);
  }
  return column[static_cast<std::size_t>(n1)];
}

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::numbers::sqrt2); }

}  // namespace

double exact_u_cdf(int u, int n1, int n2) {
  if (u < 0) return 0;
  const std::vector<double> p = exact_u_distribution(n1, n2);
  double cumulative = 0;
  for (int k = 0; k <= u && k < static_cast<int>(p.size()); ++k) cumulative += p[static_cast<std::size_t>(k)];
  return std::min(cumulative, 1.0);
}

RankTest mann_whitney_u(std::span<const double> first, std::span<const double> second) {
  RankTest test;
  const double n1 = static_cast<double>(first.size());
  const double n2 = static_cast<double>(second.size());
  if (first.empty() || second.empty()) return test;
  const Ranked ranked = rank(first, second);
  test.u = ranked.rank_sum_first - n1 * (n1 + 1) / 2;
  const double u_small = std::min(test.u, n1 * n2 - test.u);

  if (!ranked.has_ties && n1 * n2 <= kExactLimitProduct) {
    // Two-sided: twice the tail beyond the smaller U (the distribution is symmetric).
    // Without ties U is an integer, so the rounding only removes floating-point dust.
    const int u_floor = static_cast<int>(std::lround(u_small));
    test.p_value = std::min(1.0, 2 * exact_u_cdf(u_floor, static_cast<int>(n1), static_cast<int>(n2)));
    test.exact = true;
    return test;
  }

  const double n = n1 + n2;
  const double mean = n1 * n2 / 2;
  const double variance = n1 * n2 / 12 * ((n + 1) - ranked.tie_term / (n * (n - 1)));
  if (variance <= 0) return test;  // every value tied: no evidence of any difference
  const double z = (std::fabs(test.u - mean) - 0.5) / std::sqrt(variance);
  test.p_value = std::min(1.0, 2 * normal_upper_tail(std::max(z, 0.0)));
  return test;
}

}  // namespace kbench::diff
