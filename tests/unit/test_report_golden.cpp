// Every reporter's output for the synthetic report in test_report_fixture.hpp, compared byte for
// byte with tests/data/golden/. After an intended change to a report's layout, regenerate with
//   KBENCH_UPDATE_GOLDEN=1 ./build/<dir>/tests/kbench_unit_tests -ts=report
// and review the diff of tests/data/golden/ before committing it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/format.hpp"
#include "report/reporter.hpp"
#include "test_report_fixture.hpp"

namespace {

namespace fs = std::filesystem;

fs::path golden_path(const std::string& name) { return fs::path(KBENCH_TEST_DATA_DIR) / "golden" / name; }

bool updating_golden() {
  const char* flag = std::getenv("KBENCH_UPDATE_GOLDEN");
  return flag && std::string(flag) == "1";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void check_golden(const std::string& name, const std::string& actual) {
  const fs::path path = golden_path(name);
  if (updating_golden()) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    MESSAGE("rewrote " << path.string());
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), path.string() << " is missing; create it with KBENCH_UPDATE_GOLDEN=1");
  const std::string expected((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (expected == actual) return;
  // Point at the first differing line rather than dumping two whole reports.
  const auto want = lines_of(expected);
  const auto got = lines_of(actual);
  std::size_t line = 0;
  while (line < want.size() && line < got.size() && want[line] == got[line]) ++line;
  FAIL_CHECK(name << " differs from the golden file at line " << line + 1
                  << "\n  golden: " << (line < want.size() ? want[line] : "<end>")
                  << "\n  actual: " << (line < got.size() ? got[line] : "<end>")
                  << "\n(if the change is intended: KBENCH_UPDATE_GOLDEN=1, then review the diff)");
}

std::string render(const kbench::RunReport& report, kbench::ReportFormat format, bool color = false) {
  std::ostringstream out;
  kbench::write_report(report, format, out, kbench::ReportStyle{color});
  return out.str();
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("golden: text report") {
    const std::string text = render(kbench::test::fixture_report(), kbench::ReportFormat::text);
    check_golden("report.txt", text);
    for (const auto& line : lines_of(text)) {
      INFO(line);
      CHECK(kbench::report::display_width(line) <= 100);
    }
  }

  TEST_CASE("golden: JSON report") {
    check_golden("report.json", render(kbench::test::fixture_report(), kbench::ReportFormat::json));
  }

  TEST_CASE("golden: CSV report") {
    const std::string csv = render(kbench::test::fixture_report(), kbench::ReportFormat::csv);
    check_golden("report.csv", csv);
  }

  TEST_CASE("golden: Markdown report") {
    check_golden("report.md", render(kbench::test::fixture_report(), kbench::ReportFormat::markdown));
  }

  TEST_CASE("text report colours statuses only when asked to") {
    const auto report = kbench::test::fixture_report();
    const std::string plain = render(report, kbench::ReportFormat::text, false);
    CHECK(plain.find('\x1b') == std::string::npos);
    const std::string colored = render(report, kbench::ReportFormat::text, true);
    CHECK(colored.find("\x1b[32mok\x1b[0m") != std::string::npos);      // green ok
    CHECK(colored.find("\x1b[31mwrong: ") != std::string::npos);        // red wrong
    CHECK(colored.find("\x1b[31mfailed: ") != std::string::npos);       // red failed
    CHECK(colored.find("\x1b[33mskipped: ") != std::string::npos);      // yellow skipped
    CHECK(colored.find("\x1b[33munsupported: ") != std::string::npos);  // yellow unsupported
    CHECK(colored.find("\x1b[33munavailable: ") != std::string::npos);  // yellow unavailable
    // Other formats never colour, whatever the style says.
    for (auto format : {kbench::ReportFormat::json, kbench::ReportFormat::csv, kbench::ReportFormat::markdown})
      CHECK(render(report, format, true).find('\x1b') == std::string::npos);
  }

  TEST_CASE("a wrong result's time is never printed, in any format") {
    // The fixture's wrong result carries a timing it should never have had; no reporter may show it.
    const auto report = kbench::test::fixture_report();
    const double median = kbench::test::kWrongResultMedian_s;
    const std::vector<std::string> forbidden = {
        kbench::report::format_duration(median),  // "4.32 ms" (text, Markdown)
        "4.32199",                                // CSV, in ms
        "0.004321987",                            // JSON, in seconds
        kbench::report::format_significant(median * 1e3),
    };
    for (auto format : {kbench::ReportFormat::text, kbench::ReportFormat::json, kbench::ReportFormat::csv,
                        kbench::ReportFormat::markdown}) {
      const std::string out = render(report, format);
      for (const auto& text : forbidden) {
        INFO(kbench::to_string(format) << " must not contain " << text);
        CHECK(out.find(text) == std::string::npos);
      }
    }
  }

  TEST_CASE("CSV rows have as many fields as the header") {
    const std::string csv = render(kbench::test::fixture_report(), kbench::ReportFormat::csv);
    // Count fields with RFC 4180 quoting in mind (commas inside quotes do not split).
    std::vector<std::size_t> counts;
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : csv) {
      if (c == '"') quoted = !quoted;
      if (!quoted && c == ',') ++fields;
      if (!quoted && c == '\n') {
        counts.push_back(fields);
        fields = 1;
      }
    }
    REQUIRE(counts.size() == kbench::test::fixture_report().results.size() + 1);
    for (std::size_t n : counts) CHECK(n == counts.front());
    CHECK(csv.find("\"CUDNN_STATUS_NOT_SUPPORTED | cudnnConvolutionBackwardData, \"\"quoted\"\"\"") !=
          std::string::npos);
  }

  TEST_CASE("an interrupted report with no workloads and no results") {
    kbench::RunReport report;
    report.kbench_version = "0.1.0-test";
    report.peaks_from_target = true;
    report.peaks = kbench::test::fixture_peaks();
    report.interrupted = true;
    const std::string text = render(report, kbench::ReportFormat::text);
    CHECK(text.find("INTERRUPTED: the run stopped early") != std::string::npos);
    CHECK(text.find("kbench 0.1.0-test\n") == 0);
    CHECK(text.find("gpu         none — floors for target Test GPU (datasheet)\n") != std::string::npos);
    CHECK(text.find("median, spread") == std::string::npos);  // no legend without a table

    const std::string csv = render(report, kbench::ReportFormat::csv);
    CHECK(csv.rfind("workload,backend,", 0) == 0);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 1);  // the header row only

    const auto json = nlohmann::json::parse(render(report, kbench::ReportFormat::json));
    CHECK(json.at("workloads").empty());
    CHECK(json.at("results").empty());
    CHECK(json.at("floors_for_target") == true);
    CHECK(json.at("interrupted") == true);

    const std::string markdown = render(report, kbench::ReportFormat::markdown);
    CHECK(markdown.rfind("# kbench results\n", 0) == 0);
    CHECK(markdown.find("**Interrupted**") != std::string::npos);
  }
}
