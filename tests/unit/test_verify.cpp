#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "fake_backend.hpp"
#include "verify/check_points.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"

using namespace kbench;

TEST_SUITE("verify") {
  TEST_CASE("tolerances follow the math mode") {
    CHECK(default_tolerance(MathMode::fp32).atol == 1e-4);
    CHECK(default_tolerance(MathMode::fp32).rtol == 1e-4);
    CHECK(default_tolerance(MathMode::tf32).atol == 1e-2);
  }

  TEST_CASE("comparison counts mismatches, errors and the first mismatch") {
    const std::vector<float> got{1.0f, 2.0f, 3.5f, 4.0f};
    const std::vector<double> expected{1.0, 2.00005, 3.0, 4.0};
    const Comparison c = compare_outputs(got, expected, {1e-4, 1e-4});
    CHECK(c.checked == 4);
    CHECK(c.mismatches == 1);
    CHECK(c.first_mismatch == 2);
    CHECK(c.first_mismatch_got == doctest::Approx(3.5));
    CHECK(c.max_abs_error == doctest::Approx(0.5));
    CHECK(c.max_rel_error == doctest::Approx(0.5 / 3.0));
    CHECK_FALSE(c.passed());
  }

  TEST_CASE("NaN and Inf never pass, even where the tolerance is huge") {
    const std::vector<float> got{std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
    const std::vector<double> expected{0.0, 1e30};
    const Comparison c = compare_outputs(got, expected, {1e40, 1e40});
    CHECK(c.mismatches == 2);
    CHECK_FALSE(std::isfinite(c.max_abs_error));
  }

  TEST_CASE("an empty comparison does not pass") {
    CHECK_FALSE(compare_outputs(std::vector<float>{}, std::vector<double>{}, {}).passed());
  }

  TEST_CASE("check points: all elements of a small output, sorted sample with every corner of a large one") {
    ConvProblem small = testing::small_problem();
    const auto all = choose_check_points(small, 1 << 20, 1);
    CHECK(static_cast<std::int64_t>(all.size()) == small.output_elements());

    ConvProblem big = small;
    big.batch = 64;
    big.input = Dims{{300, 200, 1}};
    const auto points = choose_check_points(big, 2000, 7);
    CHECK(points.size() <= 2000);
    CHECK(points.size() > 1500);  // few duplicates
    CHECK(std::is_sorted(points.begin(), points.end()));
    CHECK(points.front() == 0);
    CHECK(points.back() == big.output_elements() - 1);
    const std::set<std::int64_t> unique(points.begin(), points.end());
    CHECK(unique.size() == points.size());
    // The corner with the last batch, first channel, first row, last column is in.
    const Dims out = big.output();
    const std::int64_t corner = (((63 * big.out_channels) + 0) * out[0] + 0) * out[1] + (out[1] - 1);
    CHECK(unique.count(corner) == 1);
    // Same seed, same points; another seed, other points.
    CHECK(choose_check_points(big, 2000, 7) == points);
    CHECK(choose_check_points(big, 2000, 8) != points);
  }
}
