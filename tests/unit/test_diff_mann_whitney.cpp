// The rank test behind `kbench diff`: exact p-values against textbook values and brute-force
// enumeration, and the normal approximation's tie correction against the permutation variance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "diff/mann_whitney.hpp"

namespace {

using kbench::diff::exact_u_cdf;
using kbench::diff::mann_whitney_u;

// U of `first` counted directly from its definition: pairs with a > b, ties one half.
double u_by_definition(const std::vector<double>& first, const std::vector<double>& second) {
  double u = 0;
  for (double a : first)
    for (double b : second) u += a > b ? 1.0 : a == b ? 0.5 : 0.0;
  return u;
}

// U for every way of choosing which n1 of `pooled` form the first sample (all C(n, n1) splits).
std::vector<double> u_over_all_splits(const std::vector<double>& pooled, std::size_t n1) {
  std::vector<double> us;
  std::vector<bool> chosen(pooled.size(), false);
  std::fill(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(n1), true);
  do {
    std::vector<double> first, second;
    for (std::size_t i = 0; i < pooled.size(); ++i) (chosen[i] ? first : second).push_back(pooled[i]);
    us.push_back(u_by_definition(first, second));
  } while (std::prev_permutation(chosen.begin(), chosen.end()));
  return us;
}

}  // namespace

TEST_CASE("Mann-Whitney U: the statistic counts pairs, ties one half") {
  const std::vector<double> a{1, 4, 4, 9};
  const std::vector<double> b{2, 4, 5};
  CHECK(mann_whitney_u(a, b).u == doctest::Approx(u_by_definition(a, b)));
  CHECK(mann_whitney_u(b, a).u == doctest::Approx(u_by_definition(b, a)));
  CHECK(mann_whitney_u(a, b).u + mann_whitney_u(b, a).u == doctest::Approx(12));
}

TEST_CASE("Mann-Whitney U: exact p-values for complete separation are 2 / C(n1+n2, n1)") {
  const auto p = [](std::vector<double> a, std::vector<double> b) { return mann_whitney_u(a, b); };
  CHECK(p({1, 2, 3}, {4, 5, 6}).p_value == doctest::Approx(2.0 / 20));
  CHECK(p({1, 2, 3}, {4, 5, 6}).exact);
  CHECK(p({5, 6, 7, 8}, {1, 2, 3, 4}).p_value == doctest::Approx(2.0 / 70));
  CHECK(p({1}, {2}).p_value == doctest::Approx(1.0));  // one sample each: never significant
}

TEST_CASE("Mann-Whitney U: the example of scipy.stats.mannwhitneyu's documentation") {
  // Ages of male and female students (scipy docs): U = 17, exact p = 0.1111, asymptotic p = 0.1113.
  const std::vector<double> males{19, 22, 16, 29, 24};
  const std::vector<double> females{20, 11, 17, 12};
  const auto test = mann_whitney_u(males, females);
  CHECK(test.u == doctest::Approx(17));
  CHECK(test.exact);
  CHECK(test.p_value == doctest::Approx(0.1111111111).epsilon(1e-9));
}

TEST_CASE("Mann-Whitney U: the exact null distribution matches enumeration of every split") {
  for (const auto& [n1, n2] : std::vector<std::pair<int, int>>{{1, 4}, {3, 3}, {4, 5}, {5, 3}, {6, 6}}) {
    std::vector<double> pooled;
    for (int i = 0; i < n1 + n2; ++i) pooled.push_back(i);
    const std::vector<double> us = u_over_all_splits(pooled, static_cast<std::size_t>(n1));
    for (int u = 0; u <= n1 * n2; ++u) {
      const double expected =
          static_cast<double>(std::count_if(us.begin(), us.end(), [&](double x) { return x <= u; })) /
          static_cast<double>(us.size());
      CAPTURE(n1);
      CAPTURE(n2);
      CAPTURE(u);
      CHECK(exact_u_cdf(u, n1, n2) == doctest::Approx(expected).epsilon(1e-12));
    }
  }
  CHECK(exact_u_cdf(-1, 3, 3) == 0);
}

TEST_CASE("Mann-Whitney U: with ties, the normal approximation uses the permutation variance") {
  // With ties the variance of U over all splits is n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))).
  // Computing it by enumeration checks the tie correction independently of that formula.
  const std::vector<double> a{1, 2, 2, 3, 5, 5};
  const std::vector<double> b{2, 3, 3, 4, 5, 6, 7};
  std::vector<double> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  const std::vector<double> us = u_over_all_splits(pooled, a.size());
  double mean = 0;
  for (double u : us) mean += u;
  mean /= static_cast<double>(us.size());
  double variance = 0;
  for (double u : us) variance += (u - mean) * (u - mean);
  variance /= static_cast<double>(us.size());

  const auto test = mann_whitney_u(a, b);
  CHECK_FALSE(test.exact);
  const double z = (std::fabs(test.u - mean) - 0.5) / std::sqrt(variance);
  const double expected_p = std::erfc(z / std::numbers::sqrt2);
  CHECK(test.p_value == doctest::Approx(expected_p).epsilon(1e-12));
  // Without the tie correction the variance would be larger and the p-value too.
  const double n = static_cast<double>(pooled.size());
  const double untied_variance = static_cast<double>(a.size() * b.size()) / 12 * (n + 1);
  CHECK(untied_variance > variance * 1.01);
}

TEST_CASE("Mann-Whitney U: large samples use the normal approximation and see a shift") {
  std::vector<double> a, b;
  for (int i = 0; i < 100; ++i) {
    a.push_back(1.0 + 0.001 * ((i * 37) % 100));
    b.push_back(1.02 + 0.001 * ((i * 53) % 100));
  }
  const auto shifted = mann_whitney_u(a, b);
  CHECK_FALSE(shifted.exact);
  CHECK(shifted.p_value < 1e-3);
  const auto same = mann_whitney_u(a, a);
  CHECK(same.p_value == doctest::Approx(1.0));
}

TEST_CASE("Mann-Whitney U: degenerate inputs give p = 1, never a crash") {
  CHECK(mann_whitney_u(std::vector<double>{}, std::vector<double>{1, 2}).p_value == 1);
  CHECK(mann_whitney_u(std::vector<double>{3, 3, 3}, std::vector<double>{3, 3}).p_value == 1);
}
