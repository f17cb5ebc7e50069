// `kbench compare`'s table: backends side by side, each time against the fastest of its row (or the
// baseline's) while they fit the width, one row per backend beyond that; the baseline must be one of the
// backends run; a total over the workloads every backend timed.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "report/comparison_report.hpp"
#include "report/format.hpp"
#include "test_report_fixture.hpp"

namespace {

std::string compare_text(const kbench::RunReport& report, const std::string& baseline) {
  std::ostringstream out;
  kbench::write_comparison(report, baseline, kbench::ReportFormat::text, out, kbench::ReportStyle{false});
  return out.str();
}

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) widest = std::max(widest, kbench::report::display_width(line));
  return widest;
}

// The lines of the table proper: after its rule, up to a blank line or the status notes.
std::vector<std::string> table_rows(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> rows;
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (!in_table) {
      in_table = line.find("-----") != std::string::npos;
      continue;
    }
    if (line.empty() || line.find(" · ") != std::string::npos) break;
    rows.push_back(line);
  }
  return rows;
}

// Two workloads, two backends, fp32: a then b take 2 and 1 ms on the first, 3 and 6 ms on the second.
kbench::RunReport race() {
  kbench::RunReport report = kbench::test::fixture_report();
  report.settings.math_modes = {kbench::MathMode::fp32};
  report.results.clear();
  const double times[2][2] = {{2e-3, 1e-3}, {3e-3, 6e-3}};
  for (std::size_t w = 0; w < 2; ++w)
    for (std::size_t b = 0; b < 2; ++b) {
      kbench::Result r = kbench::test::make_result(report.workloads[w].workload.name, b == 0 ? "a" : "b", "",
                                                   kbench::MathMode::fp32, kbench::ResultStatus::ok);
      r.verification = kbench::test::passed_verification(4096, true, 0);
      r.timing = kbench::test::fake_measurement(times[w][b], 0, 5);
      report.results.push_back(r);
    }
  return report;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("compare: two backends side by side, each against the fastest of its row") {
    kbench::RunReport report = kbench::test::fixture_report();
    std::erase_if(report.results,
                  [](const kbench::Result& r) { return r.backend != "cudnn" && r.backend != "reference"; });
    const std::string text = compare_text(report, "");
    CHECK(text.find("reference (CPU)") != std::string::npos);  // the wide layout, the CPU's column marked
    CHECK(text.find("fastest") != std::string::npos);
    CHECK(text.find("on GPU: Test GPU") != std::string::npos);
    CHECK(text.find("on CPU: Test CPU, 2 threads") != std::string::npos);
    CHECK(widest_line(text) <= 100);
    CHECK_THROWS_AS(compare_text(report, "nonexistent"), kbench::InputError);
  }

  TEST_CASE("compare: too many backends for 100 columns become one row per backend") {
    const kbench::RunReport report = kbench::test::fixture_report();  // six backends and variants
    const std::string text = compare_text(report, "cudnn");
    CHECK(text.find("vs cudnn") != std::string::npos);  // the long layout
    CHECK(text.find("baseline") != std::string::npos);
    CHECK(text.find("cuda:direct") != std::string::npos);
    CHECK(widest_line(text) <= 100);
    // Per (workload, math) the baseline and every backend with a result there.
    std::size_t expected_rows = 0;
    for (const auto& summary : report.workloads)
      for (const kbench::MathMode math : report.settings.math_modes) {
        bool baseline = false;
        for (const kbench::Result& r : report.results)
          if (r.workload == summary.workload.name && r.math_requested == math) {
            ++expected_rows;
            baseline = baseline || r.backend == "cudnn";
          }
        if (!baseline) ++expected_rows;
      }
    CHECK(table_rows(text).size() == expected_rows);
  }

  TEST_CASE("compare: the fastest of each row is marked, the others say how much slower, and a total follows") {
    const std::string text = compare_text(race(), "");
    const std::vector<std::string> rows = table_rows(text);
    REQUIRE(rows.size() >= 2);
    CHECK(rows[0].find("2.00 ms 2.00× slower") != std::string::npos);
    CHECK(rows[0].find("1.00 ms fastest") != std::string::npos);
    CHECK(rows[1].find("3.00 ms fastest") != std::string::npos);
    CHECK(rows[1].find("6.00 ms 2.00× slower") != std::string::npos);
    CHECK(text.find("medians of 5 samples each") != std::string::npos);
    // Totals: a 5 ms, b 7 ms.
    const std::size_t total = text.find("total fp32");
    REQUIRE(total != std::string::npos);
    CHECK(text.find("5.00 ms  fastest", total) != std::string::npos);
    CHECK(text.find("7.00 ms  1.40× slower", total) != std::string::npos);
    // Against a baseline instead: b is 2x faster on the first row.
    const std::string against_a = compare_text(race(), "a");
    CHECK(table_rows(against_a)[0].find("1.00 ms 2.00× faster") != std::string::npos);
    CHECK(table_rows(against_a)[0].find("2.00 ms baseline") != std::string::npos);
  }

}  // TEST_SUITE
