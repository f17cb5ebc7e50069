// The HTML report as text: one roofline point and one median mark per verified, timed result and
// none for any other, nothing fetched from the network, every string from the results escaped,
// a chart per device. tests/cli/test_html_chromium.sh renders it in a browser.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "html/escape.hpp"
#include "html/html_report.hpp"
#include "report/format.hpp"
#include "test_report_fixture.hpp"

namespace {

using kbench::html::HtmlSource;

std::string render(const std::vector<HtmlSource>& sources) {
  std::ostringstream out;
  kbench::html::write_html_report(sources, out);
  return out.str();
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

std::size_t marks_for(const std::string& html, const std::string& css_class, const std::string& id) {
  return occurrences(html, "class=\"" + css_class + "\" data-result=\"" + id + "\"");
}

}  // namespace

TEST_CASE("html: every verified, timed result with known metrics is one roofline point and one median mark") {
  const kbench::RunReport report = kbench::test::fixture_report();
  const std::string html = render({{"fixture.json", report}});
  std::size_t plotted = 0;
  for (std::size_t i = 0; i < report.results.size(); ++i) {
    const kbench::Result& r = report.results[i];
    // On the charts: ok, timed, and its workload is described (the ghost workload is not).
    const bool expected = r.status == kbench::ResultStatus::ok && r.timing && report.find_workload(r.workload) &&
                          r.ran_on == kbench::ResultDevice::gpu;
    const std::string id = "r0-" + std::to_string(i);
    CAPTURE(id);
    CHECK(marks_for(html, "roofline-point", id) == (expected ? 1u : 0u));
    CHECK(marks_for(html, "median-mark", id) == (expected ? 1u : 0u));
    CHECK(occurrences(html, "<tr data-result=\"" + id + "\" data-plotted=\"" + (expected ? "1" : "0") + "\"") == 1);
    if (expected) ++plotted;
  }
  CHECK(plotted == 3);
  CHECK(occurrences(html, "class=\"roofline-point\"") == plotted);
  CHECK(occurrences(html, "<tr data-result=") == report.results.size());
}

TEST_CASE("html: the page is self-contained") {
  kbench::RunReport report = kbench::test::fixture_report();
  report.workloads[0].workload.records[0].source = "https://example.com/leaderboard";
  const std::string html = render({{"fixture.json", report}});
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  for (const char* fetch : {"src=", "href=", "url(", "@import", "<link", "<iframe", "<img"}) {
    CAPTURE(fetch);
    CHECK(html.find(fetch) == std::string::npos);
  }
  CHECK(occurrences(html, "<svg") == 1 + report.workloads.size());  // a roofline and a chart per workload
  CHECK(html.find("id=\"kbench-selfcheck\"") != std::string::npos);
}

TEST_CASE("html: strings from the results file are text, never markup") {
  kbench::RunReport report = kbench::test::fixture_report();
  report.results[3].reason = "<script>alert('reason')</script>";
  report.workloads[0].workload.description = "<img onerror=x>";
  report.device = "GPU \"quoted\" & <b>bold</b>";
  const std::string html = render({{"<evil>.json", report}});
  CHECK(html.find("<script>alert") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(&#39;reason&#39;)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("<img onerror") == std::string::npos);
  CHECK(html.find("<b>bold") == std::string::npos);
  CHECK(html.find("&lt;evil&gt;.json") != std::string::npos);
  CHECK(kbench::html::escape("a&b<c>\"d'") == "a&amp;b&lt;c&gt;&quot;d&#39;");
}

TEST_CASE("html: a wrong result's time never appears") {
  const std::string html = render({{"fixture.json", kbench::test::fixture_report()}});
  CHECK(html.find(kbench::report::format_duration(kbench::test::kWrongResultMedian_s)) == std::string::npos);
}

TEST_CASE("html: the floor's memory and compute terms and the published records are drawn") {
  const kbench::RunReport report = kbench::test::fixture_report();
  const std::string html = render({{"fixture.json", report}});
  const kbench::Floor& floor = report.workloads[0].floor_fp32;
  CHECK(html.find("memory " + kbench::report::format_duration(floor.memory_s)) != std::string::npos);
  const std::string compute_term = "fp32 compute " + kbench::report::format_duration(floor.compute_s) + " (3xTF32)";
  CHECK(html.find(compute_term) != std::string::npos);
  CHECK(occurrences(html, "class=\"record-mark\"") == report.workloads[0].workload.records.size());
  CHECK(html.find("class=\"roof roof-fp32\"") != std::string::npos);
  CHECK(html.find("class=\"roof roof-tf32\"") != std::string::npos);  // a tf32 result was timed
}

TEST_CASE("html: several runs share a device's roofline, another device gets its own") {
  const kbench::RunReport first = kbench::test::fixture_report();
  kbench::RunReport same_device = first;
  kbench::RunReport other_device = first;
  other_device.peaks.name = "Other GPU";
  other_device.peaks.bandwidth_Bps = 2e12;

  const std::string shared = render({{"a.json", first}, {"b.json", same_device}});
  CHECK(occurrences(shared, "class=\"chart roofline\"") == 1);
  CHECK(occurrences(shared, "class=\"roofline-point\"") == 6);
  CHECK(shared.find("data-result=\"r1-0\"") != std::string::npos);
  CHECK(shared.find("#2 cudnn/IMPLICIT_PRECOMP_GEMM fp32") != std::string::npos);

  const std::string separate = render({{"a.json", first}, {"c.json", other_device}});
  CHECK(occurrences(separate, "class=\"chart roofline\"") == 2);
  CHECK(separate.find("Device 2: Other GPU") != std::string::npos);
}

TEST_CASE("html: a report without results still renders") {
  kbench::RunReport empty;
  empty.peaks = kbench::test::fixture_peaks();
  const std::string html = render({{"empty.json", empty}});
  CHECK(html.find("no timed results") != std::string::npos);
  CHECK(html.find("</html>") != std::string::npos);
}

TEST_CASE("html: each workload's heading names its data type and layout, as the text report's title does") {
  kbench::RunReport report = kbench::test::fixture_report();
  report.workloads[1].workload.problem.dtype = kbench::DType::bf16;
  report.workloads[1].workload.problem.layout = kbench::Layout::nhwc;
  const std::string html = render({{"run.json", report}});
  CHECK(html.find("<h3>W1 · conv1d_dilated_strided · fp32 nchw</h3>") != std::string::npos);
  CHECK(html.find("<h3>W2 · " + report.workloads[1].workload.name + " · bf16 nhwc</h3>") != std::string::npos);
}

TEST_CASE("html: a result that ran on the CPU is drawn under no GPU roof, and listed as the CPU's (issue 38.4)") {
  kbench::RunReport report = kbench::test::fixture_report();
  std::size_t cpu_index = report.results.size();
  for (std::size_t i = 0; i < report.results.size(); ++i)
    if (report.results[i].backend == "reference" && report.results[i].status == kbench::ResultStatus::ok) cpu_index = i;
  REQUIRE(cpu_index < report.results.size());
  kbench::Result& cpu = report.results[cpu_index];
  REQUIRE(cpu.ran_on == kbench::ResultDevice::cpu);
  cpu.timing = report.results[0].timing;  // timed: it would be plotted if it were a GPU's
  const std::string html = render({{"fixture.json", report}});
  const std::string id = "r0-" + std::to_string(cpu_index);
  CHECK(marks_for(html, "roofline-point", id) == 0);
  CHECK(marks_for(html, "median-mark", id) == 0);
  CHECK(html.find("On the host's CPU (Test CPU, 2 threads)") != std::string::npos);
  // The same result as a GPU's is drawn: the CPU is what keeps it off.
  cpu.ran_on = kbench::ResultDevice::gpu;
  CHECK(marks_for(render({{"fixture.json", report}}), "roofline-point", id) == 1);
}

TEST_CASE("html: the legend lists only what the charts draw, two runs get their own colours, the y axis has a title") {
  kbench::RunReport report = kbench::test::fixture_report();
  std::erase_if(report.results, [](const kbench::Result& r) { return r.math_used == kbench::MathMode::tf32; });
  const std::string html = render({{"fixture.json", report}});
  CHECK(html.find("swatch square") == std::string::npos);  // no tf32 point, no tf32 mark in the legend
  CHECK(html.find("></span>reference</span>") == std::string::npos);  // nothing of the reference is drawn
  CHECK(html.find("achieved FLOP/s") != std::string::npos);
  const std::string two = render({{"base.json", report}, {"new.json", report}});
  const auto color_of = [&](const std::string& key) {
    const std::size_t at = two.find("></span>" + key + "</span>");
    REQUIRE(at != std::string::npos);
    const std::size_t start = two.rfind("background:", at);
    return two.substr(start, two.find('"', start) - start);
  };
  CHECK(color_of("#1 cudnn") != color_of("#2 cudnn"));
  CHECK(two.find("overflow-x: auto") != std::string::npos);  // the results table scrolls, not the page
}
