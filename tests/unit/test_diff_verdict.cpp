// Verdicts from synthetic samples: equal runs are "same", 5% slower is caught at the default 5%
// threshold, 30% faster is "faster", and noise does not raise an alarm.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "diff/verdict.hpp"

namespace {

using kbench::diff::compare_samples;
using kbench::diff::Verdict;
using kbench::diff::VerdictOptions;

// `count` samples around `center_s`, each off by up to ±`jitter` (relative), from a fixed
// linear congruential sequence: reproducible, and unlike an evenly spaced grid, unordered.
std::vector<double> samples(double center_s, double jitter, int count, std::uint32_t seed) {
  std::vector<double> out;
  std::uint32_t state = seed;
  for (int i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    const double unit = static_cast<double>(state >> 8) / static_cast<double>(1u << 24);  // [0, 1)
    out.push_back(center_s * (1 + jitter * (2 * unit - 1)));
  }
  return out;
}

Verdict verdict_of(const std::vector<double>& base, const std::vector<double>& next, VerdictOptions options = {}) {
  const auto comparison = compare_samples(base, next, options);
  REQUIRE(comparison);
  return comparison->verdict;
}

}  // namespace

TEST_CASE("verdict: two runs of the same distribution are the same") {
  const auto base = samples(1e-3, 0.01, 50, 1);
  const auto next = samples(1e-3, 0.01, 50, 2);
  const auto c = compare_samples(base, next, {});
  REQUIRE(c);
  CHECK(c->verdict == Verdict::same);
  CHECK(std::abs(c->change) < 0.01);
  CHECK(c->base_count == 50);
  CHECK(c->new_count == 50);
}

TEST_CASE("verdict: 5% slower is caught at the default 5% threshold") {
  const auto base = samples(1e-3, 0.01, 50, 3);
  std::vector<double> next = base;
  for (double& s : next) s *= 1.05;  // exactly 5% on every sample, so on the median too
  const auto c = compare_samples(base, next, {});
  REQUIRE(c);
  CHECK(c->change == doctest::Approx(0.05));
  CHECK(c->p_value < 0.001);
  CHECK(c->verdict == Verdict::slower);
  // The same change under a 10% threshold is not worth an alarm.
  CHECK(verdict_of(base, next, {0.10, 0.05}) == Verdict::same);
}

TEST_CASE("verdict: 30% faster is faster") {
  const auto base = samples(2e-3, 0.02, 30, 4);
  const auto next = samples(2e-3 * 0.7, 0.02, 30, 5);
  const auto c = compare_samples(base, next, {});
  REQUIRE(c);
  CHECK(c->change == doctest::Approx(-0.3).epsilon(0.05));
  CHECK(c->verdict == Verdict::faster);
}

TEST_CASE("verdict: noisy samples whose medians differ by more than the threshold are unclear, not slower") {
  // Ten samples spread over ±50% of the median, and the same ten 10% slower: the medians are 10%
  // apart but the samples overlap so much that a rank test cannot tell the change from chance.
  std::vector<double> base;
  for (int i = 0; i < 10; ++i) base.push_back(1e-3 * (0.5 + i / 9.0));
  std::vector<double> next = base;
  for (double& s : next) s *= 1.10;
  const auto c = compare_samples(base, next, {});
  REQUIRE(c);
  CAPTURE(c->p_value);
  CHECK(c->change == doctest::Approx(0.10));
  CHECK(c->p_value >= 0.05);
  CHECK(c->verdict == Verdict::unclear);
}

TEST_CASE("verdict: the threshold keeps realistic noise from raising alarms a rank test alone would raise") {
  // 200 pairs of runs of one distribution (±2% noise, 30 samples each). A rank test alone flags
  // about alpha = 5% of them; a median never moves 5% on such noise, so no verdict is an alarm.
  int rank_test_alarms = 0;
  int verdict_alarms = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const auto base = samples(1e-3, 0.02, 30, seed);
    const auto next = samples(1e-3, 0.02, 30, seed + 1000);
    const auto c = compare_samples(base, next, {});
    REQUIRE(c);
    if (c->p_value < 0.05) ++rank_test_alarms;
    if (c->verdict == Verdict::slower || c->verdict == Verdict::faster) ++verdict_alarms;
  }
  CHECK(rank_test_alarms > 0);  // the noise is real: the test alone would cry wolf
  CHECK(verdict_alarms == 0);
}

TEST_CASE("verdict: on heavy noise, false alarms stay near alpha") {
  // ±30% noise and 20 samples: medians do move by 5% by chance, and then only the rank test
  // stands between the noise and an alarm. It errs at most about alpha of the time.
  int alarms = 0;
  constexpr int kPairs = 400;
  for (std::uint32_t seed = 1; seed <= kPairs; ++seed) {
    const Verdict v = verdict_of(samples(1e-3, 0.3, 20, seed), samples(1e-3, 0.3, 20, seed + 5000));
    if (v == Verdict::slower || v == Verdict::faster) ++alarms;
  }
  CAPTURE(alarms);
  CHECK(alarms <= kPairs * 8 / 100);
}

TEST_CASE("verdict: a few samples cannot be significant however far apart") {
  const std::vector<double> base{1.0e-3, 1.01e-3, 0.99e-3};
  const std::vector<double> next{2.0e-3, 2.01e-3, 1.99e-3};
  const auto c = compare_samples(base, next, {});
  REQUIRE(c);
  CHECK(c->exact_p);
  CHECK(c->p_value == doctest::Approx(0.1));
  CHECK(c->verdict == Verdict::unclear);
  // Four samples each can: 2/70 < 0.05.
  const std::vector<double> base4{1.0e-3, 1.01e-3, 0.99e-3, 1.02e-3};
  const std::vector<double> next4{2.0e-3, 2.01e-3, 1.99e-3, 2.02e-3};
  CHECK(verdict_of(base4, next4) == Verdict::slower);
}

TEST_CASE("verdict: alpha decides how much evidence a verdict needs") {
  const std::vector<double> base4{1.0e-3, 1.01e-3, 0.99e-3, 1.02e-3};
  const std::vector<double> next4{2.0e-3, 2.01e-3, 1.99e-3, 2.02e-3};
  CHECK(verdict_of(base4, next4, {0.05, 0.01}) == Verdict::unclear);
}

TEST_CASE("verdict: no samples or a zero median gives no comparison") {
  CHECK_FALSE(compare_samples(std::vector<double>{}, std::vector<double>{1e-3}, {}));
  CHECK_FALSE(compare_samples(std::vector<double>{0, 0, 0}, std::vector<double>{1e-3}, {}));
}
