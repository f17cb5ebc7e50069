// The three renderings of a diff: every pair, status change and unmatched result shows up, the
// JSON carries the exit status, and Markdown survives names with table syntax in them.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "core/error.hpp"
#include "diff/diff_render.hpp"
#include "test_report_fixture.hpp"

namespace {

using namespace kbench;
using namespace kbench::diff;
using kbench::test::fake_measurement;
using kbench::test::make_result;

Result timed(const std::string& workload, const std::string& backend, double median_s) {
  Result r = make_result(workload, backend, backend + ":ALGO", MathMode::fp32, ResultStatus::ok);
  r.timing = fake_measurement(median_s, median_s * 0.02, 20);
  return r;
}

// BASE and NEW with one of everything: slower, faster, same, a pair that broke, one only in each.
DiffReport sample_diff(const std::string& new_model = "Model X") {
  RunReport base, next;
  base.device = next.device = "GPU A";
  base.peaks.name = "Model X";
  next.peaks.name = new_model;
  if (new_model != "Model X") next.device = "GPU B";
  base.results = {timed("w|pipe", "cudnn", 1e-3), timed("w2", "cudnn", 1e-3), timed("w3", "cudnn", 1e-3),
                  timed("w4", "cuda", 1e-3), timed("gone", "cuda", 1e-3)};
  next.results = {timed("w|pipe", "cudnn", 1.3e-3), timed("w2", "cudnn", 0.7e-3), timed("w3", "cudnn", 1e-3),
                  make_result("w4", "cuda", "", MathMode::fp32, ResultStatus::failed, "illegal address"),
                  timed("new", "cuda", 1e-3)};
  return diff_reports(base, next, {});
}

std::string render(const DiffReport& report, DiffFormat format) {
  std::ostringstream out;
  write_diff(report, {"base.json", "new.json"}, format, out);
  return out.str();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("diff render: changes and p-values read the same in every format") {
  CHECK(format_change(0.05) == "+5.0%");
  CHECK(format_change(-0.3) == "-30.0%");
  CHECK(format_change(-0.0004) == "0.0%");
  CHECK(format_p_value(0.0123) == "0.012");
  CHECK(format_p_value(1e-7) == "<0.001");
  CHECK(parse_diff_format("md") == DiffFormat::markdown);
  CHECK_FALSE(parse_diff_format("csv"));
}

TEST_CASE("diff render: text lists verdicts, status changes, unmatched results and the exit status") {
  const std::string text = render(sample_diff(), DiffFormat::text);
  CHECK(contains(text, "BASE base.json"));
  CHECK(contains(text, "+30.0%"));
  CHECK(contains(text, "-30.0%"));
  CHECK(contains(text, "slower"));
  CHECK(contains(text, "faster"));
  CHECK(contains(text, "same"));
  CHECK(contains(text, "broke"));
  CHECK(contains(text, "NEW failed (illegal address)"));
  CHECK(contains(text, "only in BASE (not in NEW)\n  gone · cuda · fp32: ok, median 1.00 ms"));
  CHECK(contains(text, "only in NEW (not in BASE)\n  new · cuda · fp32: ok"));
  CHECK(contains(text, "exit 1: 1 slower, 1 newly wrong or failed"));
  CHECK_FALSE(contains(text, "DEVICE MISMATCH"));
  CHECK(contains(render(sample_diff("Model Y"), DiffFormat::text),
                 "DEVICE MISMATCH: BASE ran on Model X, NEW on Model Y"));
}

TEST_CASE("diff render: markdown is a PR comment with an escaped table") {
  const std::string md = render(sample_diff(), DiffFormat::markdown);
  CHECK(md.rfind("## kbench diff", 0) == 0);
  CHECK(contains(md, "**1 faster, 1 slower, 1 same, 1 broke, 1 only in BASE, 1 only in NEW**"));
  CHECK(contains(md, "| w\\|pipe | cudnn | fp32 | 1.00 ms | 1.30 ms | +30.0% |"));
  CHECK(contains(md, "**slower**"));
  CHECK(contains(md, "- **broke**: w4 · cuda · fp32: BASE ok → NEW failed (illegal address)"));
  CHECK(contains(md, "### Only in BASE"));
  CHECK(contains(render(sample_diff("Model Y"), DiffFormat::markdown), "**device mismatch**"));
}

TEST_CASE("diff render: json holds every pair, the unmatched results, the mismatch and the exit code") {
  const DiffReport report = sample_diff("Model Y");
  const auto json = nlohmann::json::parse(render(report, DiffFormat::json));
  CHECK(json.at("schema") == "kbench.diff/1");
  CHECK(json.at("threshold") == 0.05);
  REQUIRE(json.at("pairs").size() == 4);
  const auto& slower = json.at("pairs")[0];
  CHECK(slower.at("workload") == "w|pipe");
  CHECK(slower.at("verdict") == "slower");
  CHECK(slower.at("change").get<double>() == doctest::Approx(0.3));
  CHECK(slower.at("p_value").get<double>() < 0.05);
  CHECK(slower.at("base").at("median_s").get<double>() == doctest::Approx(1e-3));
  CHECK(slower.at("new").at("samples") == 20);
  const auto& broke = json.at("pairs")[3];
  CHECK(broke.at("outcome") == "broke");
  CHECK(broke.at("verdict").is_null());
  CHECK(broke.at("new").at("median_s").is_null());
  CHECK(json.at("only_in_base")[0].at("workload") == "gone");
  CHECK(json.at("only_in_new")[0].at("workload") == "new");
  CHECK(json.at("device_mismatch").at("model_differs") == true);
  CHECK(json.at("base").at("peaks_name") == "Model X");
  CHECK(json.at("summary").at("slower") == 1);
  CHECK(json.at("exit_code") == exit_result_failed);
  CHECK(json.at("exit_code") == diff_exit_code(report));
}
