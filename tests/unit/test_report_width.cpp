// The text report fits the terminal it is printed on: at 80 and 120 columns every line of the fixture
// report (every status, long implementation names, notes) stays within the width, the median, rate and
// ×floor columns stay, and a column left out to fit is named under its table. Names cut to fit stay
// apart, and rates are scaled (a CPU's 593 MFLOP/s is "593M", not "0.000593").
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "report/format.hpp"
#include "report/reporter.hpp"
#include "test_report_fixture.hpp"

namespace {

std::string text_at(std::size_t width) {
  std::ostringstream out;
  kbench::write_report(kbench::test::fixture_report(), kbench::ReportFormat::text, out,
                       kbench::ReportStyle{false, width});
  return out.str();
}

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) widest = std::max(widest, kbench::report::display_width(line));
  return widest;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("width: the text report fits 80 and 120 columns") {
    for (const std::size_t width : {std::size_t{80}, std::size_t{120}}) {
      CAPTURE(width);
      const std::string text = text_at(width);
      CHECK(widest_line(text) <= width);
      CHECK(text.find("median") != std::string::npos);
      CHECK(text.find("×floor") != std::string::npos);
      CHECK(text.find("FLOP/s") != std::string::npos);
    }
    CHECK(text_at(80).find("left out to fit 80 columns") != std::string::npos);
    CHECK(text_at(120).find("left out to fit") == std::string::npos);
  }

  TEST_CASE("width: names cut to fit stay apart") {
    using kbench::report::shorten_apart;
    const std::vector<std::string> names = {"resnet50-001-layer1.0.downsample.0", "resnet50-002-layer2.0.downsample.0",
                                            "resnet50-003-layer3.0.downsample.0"};
    const auto cut = shorten_apart(names, 24);
    for (std::size_t i = 0; i < cut.size(); ++i) {
      CHECK(kbench::report::display_width(cut[i]) <= 24);
      for (std::size_t j = i + 1; j < cut.size(); ++j) CHECK(cut[i] != cut[j]);
    }
    CHECK(shorten_apart({"short", "names"}, 24) == std::vector<std::string>{"short", "names"});
  }

  TEST_CASE("width: rates are scaled to their magnitude") {
    using kbench::report::format_scaled;
    CHECK(format_scaled(593e6) == "593M");
    CHECK(format_scaled(55.7e12) == "55.7T");
    CHECK(format_scaled(999.96e9) == "1.00T");
    CHECK(format_scaled(12.0) == "12.0");
  }
}
