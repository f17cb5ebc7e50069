// The log axis and tick labels of the HTML report's charts.
#include <doctest/doctest.h>

#include "html/log_axis.hpp"
#include "html/svg.hpp"

using kbench::html::LogAxis;

TEST_CASE("html axis: nice_floor and nice_ceil snap to 1, 2, 5 x 10^k") {
  using kbench::html::nice_ceil;
  using kbench::html::nice_floor;
  CHECK(nice_floor(3.7e-3) == doctest::Approx(2e-3));
  CHECK(nice_ceil(3.7e-3) == doctest::Approx(5e-3));
  CHECK(nice_floor(9.9) == doctest::Approx(5));
  CHECK(nice_ceil(9.9) == doctest::Approx(10));
  CHECK(nice_floor(1e-6) == doctest::Approx(1e-6));  // already nice: unchanged, not a step lower
  CHECK(nice_ceil(2e12) == doctest::Approx(2e12));
  CHECK(nice_ceil(5.01) == doctest::Approx(10));
}

TEST_CASE("html axis: values map monotonically onto the pixel range, clamped at the ends") {
  const LogAxis x(3e-6, 4e-3, 100, 700);
  CHECK(x.lo() == doctest::Approx(2e-6));
  CHECK(x.hi() == doctest::Approx(5e-3));
  CHECK(x.to_pixel(x.lo()) == doctest::Approx(100));
  CHECK(x.to_pixel(x.hi()) == doctest::Approx(700));
  CHECK(x.to_pixel(1e-5) < x.to_pixel(1e-4));
  CHECK(x.to_pixel(1e-9) == doctest::Approx(100));  // below the domain
  CHECK(x.to_pixel(0) == doctest::Approx(100));     // never a log of zero
  CHECK(x.to_pixel(10) == doctest::Approx(700));
  // Equal steps in log space are equal steps in pixels.
  CHECK(x.to_pixel(1e-4) - x.to_pixel(1e-5) == doctest::Approx(x.to_pixel(1e-3) - x.to_pixel(1e-4)));

  const LogAxis y(1e9, 1e15, 400, 20);  // grows upward
  CHECK(y.to_pixel(1e9) == doctest::Approx(400));
  CHECK(y.to_pixel(1e15) == doctest::Approx(20));
}

TEST_CASE("html axis: ticks are 1-2-5 on narrow ranges and decades on wide ones") {
  const LogAxis narrow(8e-3, 30e-3, 0, 100);
  const std::vector<double> narrow_ticks = narrow.ticks();
  REQUIRE(narrow_ticks.size() == 4);  // 5, 10, 20, 50 ms
  CHECK(narrow_ticks[0] == doctest::Approx(5e-3));
  CHECK(narrow_ticks[3] == doctest::Approx(50e-3));

  const LogAxis wide(1e9, 1e15, 0, 100);
  const std::vector<double> wide_ticks = wide.ticks();
  REQUIRE(wide_ticks.size() == 7);
  CHECK(wide_ticks.front() == doctest::Approx(1e9));
  CHECK(wide_ticks.back() == doctest::Approx(1e15));
}

TEST_CASE("html axis: a single value or bad input still gives a usable axis") {
  const LogAxis single(1e-3, 1e-3, 0, 100);
  CHECK(single.lo() < single.hi());
  const LogAxis bad(-1, 0, 0, 100);
  CHECK(bad.lo() > 0);
  CHECK(bad.lo() < bad.hi());
}

TEST_CASE("html axis: tick labels are short") {
  using kbench::html::compact_duration;
  using kbench::html::compact_si;
  CHECK(compact_si(2e13) == "20 T");
  CHECK(compact_si(1e15) == "1 P");
  CHECK(compact_si(0.5) == "500 m");
  CHECK(compact_si(5) == "5");
  CHECK(compact_duration(2e-3) == "2 ms");
  CHECK(compact_duration(5e-4) == "500 µs");
  CHECK(compact_duration(1) == "1 s");
  CHECK(compact_duration(2e-8) == "20 ns");
}
