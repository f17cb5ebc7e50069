// The HTML report's sweep charts: the points of a sweep along one axis drawn as lines (median time
// and ×floor per backend, the floor dashed), one mark per plotted result, gaps where a backend has
// none; sweeps along two axes, and single points, are not drawn as lines.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "html/html_report.hpp"
#include "html/page_model.hpp"
#include "html/sweep_chart.hpp"
#include "spec/load.hpp"
#include "test_report_fixture.hpp"

using namespace kbench;

namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

// A run of a sweep over `sweep` with results on two backends; `skip_cuda_at` leaves one point without a cuda result.
RunReport swept_run(const std::string& sweep, int skip_cuda_at = -1) {
  RunReport report = test::fixture_report();
  report.workloads.clear();
  report.results.clear();
  const auto workloads = parse_workloads(
      "name: conv\nop: conv\ninput: [2, 8, 32, 32]\nout_channels: 16\nkernel: 3\n"
      "sweep: " +
          sweep + "\n",
      "s.yaml");
  for (std::size_t i = 0; i < workloads.size(); ++i) {
    report.workloads.push_back(test::summarize_for_test(workloads[i], report.peaks));
    for (const char* backend : {"cudnn", "cuda"}) {
      if (std::string(backend) == "cuda" && static_cast<int>(i) == skip_cuda_at) continue;
      Result r = test::make_result(workloads[i].name, backend, std::string(backend) + "_impl", MathMode::fp32,
                                   ResultStatus::ok);
      r.verification = test::passed_verification(100, true, 0);
      r.timing = test::fake_measurement(1e-3 * static_cast<double>(i + 1), 1e-5, 20);
      report.results.push_back(r);
    }
  }
  return report;
}

std::string render(const RunReport& report) {
  std::ostringstream out;
  html::write_html_report({{"sweep.json", report}}, out);
  return out.str();
}

std::vector<const WorkloadSummary*> summaries(const RunReport& report) {
  std::vector<const WorkloadSummary*> out;
  for (const WorkloadSummary& w : report.workloads) out.push_back(&w);
  return out;
}

}  // namespace

TEST_SUITE("html sweep") {
  TEST_CASE("html sweep: one axis is a sweep group, in the run's order") {
    const RunReport report = swept_run("{batch: [1, 4, 16]}");
    const auto groups = html::find_sweeps(summaries(report));
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].origin == "conv");
    CHECK(groups[0].axis == "batch");
    REQUIRE(groups[0].points.size() == 3);
    CHECK(groups[0].points[2]->workload.name == "conv.batch-16");
  }

  TEST_CASE("html sweep: two axes that both vary, or a single point, are not drawn as a line") {
    CHECK(html::find_sweeps(summaries(swept_run("{batch: [1, 4], kernel: [1, 3]}"))).empty());
    CHECK(html::find_sweeps(summaries(swept_run("{batch: [4]}"))).empty());
    // Two axes, one of them fixed at one value: still a line along the other.
    const auto groups = html::find_sweeps(summaries(swept_run("{batch: [4], kernel: [1, 3, 5]}")));
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].axis == "kernel");
    CHECK(html::find_sweeps(summaries(test::fixture_report())).empty());  // nothing swept
  }

  TEST_CASE("html sweep: a chart with a line per backend in each panel, a mark per plotted result, the floor") {
    const RunReport report = swept_run("{batch: [1, 4, 16]}");
    const std::string html = render(report);
    CHECK(occurrences(html, "<svg class=\"chart sweep\"") == 1);
    CHECK(html.find("Sweep · conv along batch") != std::string::npos);
    // cudnn and cuda, each a time line and a ×floor line; the fp32 floor once.
    const std::size_t chart = html.find("<svg class=\"chart sweep\"");
    const std::string sweep_svg = html.substr(chart, html.find("</svg>", chart) - chart);
    CHECK(occurrences(sweep_svg, "<polyline points=") == 2 * 2 + 1);
    CHECK(occurrences(html, "class=\"sweep-line\"") == 4);
    for (std::size_t i = 0; i < report.results.size(); ++i) {
      CAPTURE(i);
      CHECK(occurrences(html, "class=\"sweep-point\" data-result=\"r0-" + std::to_string(i) + "\"") == 1);
    }
    // The axis values label the points; the per-workload charts are still there.
    for (const char* value : {">1</text>", ">4</text>", ">16</text>"}) CHECK(html.find(value) != std::string::npos);
    CHECK(occurrences(html, "class=\"median-mark\"") == report.results.size());
  }

  TEST_CASE("html sweep: a point without a backend's result breaks that backend's line") {
    const RunReport report = swept_run("{batch: [1, 4, 16, 64]}", 1);  // cuda has no result at batch 4
    const std::string html = render(report);
    // cudnn: one line per panel; cuda: points 3 and 4 joined, point 1 alone (a mark, no line).
    CHECK(occurrences(html, "class=\"sweep-line\"") == 2 + 2);
    CHECK(occurrences(html, "class=\"sweep-point\"") == report.results.size());
  }
}
