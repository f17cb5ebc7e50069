// The spec's `count:` (how many times the model a workload comes from runs it): read and refused like
// any key, carried through JSON (only when not 1), shown beside the workload, and the text report's
// suite total weighted by it.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "core/error.hpp"
#include "report/json_report.hpp"
#include "report/reporter.hpp"
#include "report/suite_total.hpp"
#include "spec/load.hpp"
#include "test_report_fixture.hpp"

namespace {

const std::string kSpec =
    "- name: a\n  op: conv\n  input: [1, 4, 8, 8]\n  out_channels: 4\n  kernel: 3\n  count: 3\n"
    "- name: b\n  op: conv\n  input: [1, 4, 8, 8]\n  out_channels: 4\n  kernel: 1\n";

std::string refusal(const std::string& count) {
  try {
    (void)kbench::parse_workloads(
        "name: a\nop: conv\ninput: [1, 4, 8, 8]\nout_channels: 4\nkernel: 3\ncount: " + count + "\n", "c.yaml");
  } catch (const kbench::InputError& e) {
    return e.what();
  }
  return "";
}

// The fixture report with counts: the conv1d workload 4 times, the transposed one once.
kbench::RunReport counted_report() {
  kbench::RunReport report = kbench::test::fixture_report();
  report.workloads[0].workload.count = 4;
  return report;
}

}  // namespace

TEST_SUITE("workload count") {
  TEST_CASE("count: read from the spec, 1 by default, refused unless a positive integer") {
    const auto workloads = kbench::parse_workloads(kSpec, "s.yaml");
    REQUIRE(workloads.size() == 2);
    CHECK(workloads[0].count == 3);
    CHECK(workloads[1].count == 1);
    CHECK(refusal("0").starts_with("c.yaml:6:8: count: "));
    CHECK(refusal("-2").starts_with("c.yaml:6:8: count: "));
    CHECK(refusal("1.5").find("expected an integer") != std::string::npos);
    CHECK(refusal("many").find("count") != std::string::npos);
    CHECK(refusal("3") == "");
  }

  TEST_CASE("count: a swept workload's points keep it") {
    const auto points = kbench::parse_workloads(
        "name: s\nop: conv\ninput: [1, 4, 8, 8]\nout_channels: 4\nkernel: 3\ncount: 2\nsweep: {batch: [1, 2]}\n",
        "s.yaml");
    REQUIRE(points.size() == 2);
    CHECK(points[0].count == 2);
    CHECK(points[1].count == 2);
  }

  TEST_CASE("count: JSON writes it only when it is not 1, and reads it back") {
    std::ostringstream plain;
    kbench::write_json_report(kbench::test::fixture_report(), plain);
    CHECK(plain.str().find("\"count\": 4") == std::string::npos);
    const kbench::RunReport report = counted_report();
    std::ostringstream out;
    kbench::write_json_report(report, out);
    const auto document = nlohmann::json::parse(out.str());
    CHECK(document["workloads"][0]["count"] == 4);
    CHECK_FALSE(document["workloads"][1].contains("count"));
    const kbench::RunReport read = kbench::read_json_report(document);
    CHECK(read.workloads[0].workload.count == 4);
    CHECK(read.workloads[1].workload.count == 1);
    auto bad = document;
    bad["workloads"][0]["count"] = 0;
    CHECK_THROWS_AS((void)kbench::read_json_report(bad), kbench::InputError);
  }

  TEST_CASE("count: the text report shows it beside the workload and a weighted suite total") {
    std::ostringstream plain;
    kbench::write_report(kbench::test::fixture_report(), kbench::ReportFormat::text, plain, kbench::ReportStyle{false});
    CHECK(plain.str().find("suite total") == std::string::npos);  // no counts, no total: reports as before

    const kbench::RunReport report = counted_report();
    std::ostringstream text;
    kbench::write_report(report, kbench::ReportFormat::text, text, kbench::ReportStyle{false});
    CHECK(text.str().find("count       4 (times the model runs it") != std::string::npos);
    CHECK(text.str().find("suite total, each workload's median x its count") != std::string::npos);
    std::ostringstream markdown;
    kbench::write_report(report, kbench::ReportFormat::markdown, markdown, kbench::ReportStyle{false});
    CHECK(markdown.str().find("- count: 4 (times the model runs it") != std::string::npos);

    // Weighted by hand: every timed result's median times its workload's count.
    const auto totals = kbench::report::suite_totals(report);
    REQUIRE_FALSE(totals.empty());
    for (const auto& total : totals) {
      double expected = 0;
      std::size_t timed = 0;
      for (const kbench::Result& r : report.results) {
        const std::string label = r.backend + (r.variant.empty() ? "" : ":" + r.variant) + " " +
                                  std::string(kbench::to_string(r.math_requested));
        if (label != total.label || r.status != kbench::ResultStatus::ok || !r.timing) continue;
        expected += (r.workload == report.workloads[0].workload.name ? 4.0 : 1.0) * r.timing->stats.median;
        ++timed;
      }
      CAPTURE(total.label);
      CHECK(total.weighted_s == doctest::Approx(expected));
      CHECK(total.timed == timed);
      CHECK(total.workloads >= 2);  // the fixture also has a result of a workload it does not summarize
    }
  }
}
