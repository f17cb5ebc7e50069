// `kbench compare`'s table: backends side by side with speedups against the baseline while they fit
// 100 columns, one row per backend beyond that; the baseline must be one of the backends run.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>

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

// The header sentence and the table: the lines up to the status notes ("  workload · ...", two
// spaces and text, where the table's continuation rows start with more blanks).
std::string table_of(const std::string& text) {
  std::istringstream in(text);
  std::string line, table;
  while (std::getline(in, line) && !(line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' '))
    table += line + '\n';
  return table;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("compare: two backends side by side, speedup against the baseline") {
    kbench::RunReport report = kbench::test::fixture_report();
    std::erase_if(report.results,
                  [](const kbench::Result& r) { return r.backend != "cudnn" && r.backend != "reference"; });
    const std::string text = compare_text(report, "cudnn");
    const std::string table = table_of(text);
    CHECK(table.find("reference speedup") != std::string::npos);  // the wide layout
    CHECK(table.find("speedup vs") == std::string::npos);
    CHECK(widest_line(table) <= 100);
    CHECK_THROWS_AS(compare_text(report, "nonexistent"), kbench::InputError);
  }

  TEST_CASE("compare: too many backends for 100 columns become one row per backend") {
    const kbench::RunReport report = kbench::test::fixture_report();  // six backends and variants
    const std::string text = compare_text(report, "cudnn");
    const std::string table = table_of(text);
    CHECK(table.find("speedup vs cudnn") != std::string::npos);  // the long layout
    CHECK(table.find("baseline") != std::string::npos);
    CHECK(table.find("cuda:direct") != std::string::npos);
    CHECK(widest_line(table) <= 100);
    // Sentence (2 lines), header and rule, then per (workload, math) the baseline and every backend
    // with a result there.
    std::size_t expected_rows = 4;
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
    CHECK(static_cast<std::size_t>(std::count(table.begin(), table.end(), '\n')) == expected_rows);
  }

}  // TEST_SUITE
