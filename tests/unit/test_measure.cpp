#include <doctest/doctest.h>

#include <vector>

#include "fake_backend.hpp"
#include "measure/measure.hpp"
#include "measure/statistics.hpp"

using namespace kbench;

TEST_SUITE("measure") {
  TEST_CASE("statistics of a known sample") {
    const std::vector<double> samples{5, 1, 4, 2, 3};
    const Statistics s = summarize(samples);
    CHECK(s.count == 5);
    CHECK(s.min == 1);
    CHECK(s.max == 5);
    CHECK(s.mean == doctest::Approx(3));
    CHECK(s.median == doctest::Approx(3));
    CHECK(s.stdev == doctest::Approx(1.5811388300841898));  // sample stdev of 1..5: sqrt(2.5)
    CHECK(s.p10 == doctest::Approx(1.4));                   // rank 0.4 between 1 and 2
    CHECK(s.p90 == doctest::Approx(4.6));
  }

  TEST_CASE("median of an even count interpolates, empty input gives zeros") {
    const std::vector<double> even{1, 2, 3, 10};
    CHECK(summarize(even).median == doctest::Approx(2.5));
    CHECK(summarize(std::vector<double>{}).count == 0);
    CHECK(summarize(std::vector<double>{7}).stdev == 0);
  }

  TEST_CASE("the loop runs warm-ups, discards, then takes exactly the iterations asked for") {
    testing::FakeBackendConfig config;
    config.sample_seconds = {0.004, 0.002, 0.003};
    testing::FakeRun run(testing::small_problem(), config);
    run.fill_inputs(1);
    MeasureOptions options;
    options.warmups = 3;
    options.discarded = 1;
    options.iterations = 6;
    const Measurement m = measure(run, options);
    CHECK(run.runs == 3 + 1 + 6);
    REQUIRE(m.samples_s.size() == 6);
    // The discarded sample was the first (0.004); kept samples continue the cycle from there.
    CHECK(m.samples_s[0] == doctest::Approx(0.002));
    CHECK(m.stats.count == 6);
    CHECK(m.stats.min == doctest::Approx(0.002));
    CHECK_FALSE(m.budget_exhausted);
  }

  TEST_CASE("the time budget stops sampling early and says so") {
    testing::FakeBackendConfig config;
    testing::FakeRun run(testing::small_problem(), config);
    run.fill_inputs(1);
    MeasureOptions options;
    options.warmups = 0;
    options.discarded = 0;
    options.iterations = 1000000;
    options.time_budget_s = 0.05;  // the fake's runs take real (small) CPU time
    const Measurement m = measure(run, options);
    CHECK(m.budget_exhausted);
    CHECK(m.samples_s.size() >= 1);
    CHECK(m.samples_s.size() < 1000000);
  }

  TEST_CASE("a spent budget still takes the protocol's minimum of samples, never more than asked") {
    testing::FakeBackendConfig config;
    testing::FakeRun run(testing::small_problem(), config);
    run.fill_inputs(1);
    MeasureOptions options;
    options.warmups = 0;
    options.discarded = 0;
    options.iterations = 100;
    options.time_budget_s = 1e-12;  // spent before the first sample ends
    const Measurement three = measure(run, options);
    CHECK(three.samples_s.size() == static_cast<std::size_t>(options.min_samples));
    CHECK(three.budget_exhausted);
    options.iterations = 2;  // fewer asked for than the minimum: exactly those
    const Measurement two = measure(run, options);
    CHECK(two.samples_s.size() == 2);
    CHECK_FALSE(two.budget_exhausted);
  }
}
