// `--format bencher` / `github-action-benchmark`: the customSmallerIsBetter list, checked against
// tests/data/formats/github-action-benchmark.schema.json and for what it holds: one entry per
// verified, timed result, its median as the value.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

#include "report/benchmark_name.hpp"
#include "report/reporter.hpp"
#include "schema_validation.hpp"
#include "test_report_fixture.hpp"

namespace {

using nlohmann::ordered_json;

ordered_json bencher_document(const kbench::RunReport& report) {
  std::ostringstream out;
  kbench::write_report(report, kbench::ReportFormat::bencher, out);
  return ordered_json::parse(out.str());
}

const std::string kSchema = "formats/github-action-benchmark.schema.json";

}  // namespace

TEST_CASE("bencher: both names select the format") {
  CHECK(kbench::parse_report_format("bencher") == kbench::ReportFormat::bencher);
  CHECK(kbench::parse_report_format("github-action-benchmark") == kbench::ReportFormat::bencher);
  CHECK(kbench::parse_report_format("gbench") == kbench::ReportFormat::gbench);
  CHECK(kbench::to_string(kbench::ReportFormat::bencher) == "bencher");
}

TEST_CASE("bencher: the list matches github-action-benchmark's input schema") {
  const ordered_json document = bencher_document(kbench::test::fixture_report());
  const auto verdict = kbench::test::validate_against_schema(document, kbench::test::test_data_path(kSchema));
  INFO(verdict.log);
  CHECK(verdict.valid);

  ordered_json broken = document;
  broken[0]["value"] = "12.3";  // a string where a number belongs
  CHECK_FALSE(kbench::test::validate_against_schema(broken, kbench::test::test_data_path(kSchema)).valid);
}

TEST_CASE("bencher: one entry per verified, timed result, median in microseconds") {
  const kbench::RunReport report = kbench::test::fixture_report();
  const ordered_json document = bencher_document(report);
  // The fixture has four timed ok results (cudnn, cuda:direct, cudnn tf32, the ghost workload's).
  REQUIRE(document.size() == 4);
  std::set<std::string> names;
  for (const ordered_json& entry : document) names.insert(entry.at("name").get<std::string>());
  CHECK(names.size() == 4);                                          // a dashboard series per result
  CHECK(names.count("conv1d_dilated_strided/cuda:rows/fp32") == 0);  // wrong: no value to plot

  const ordered_json& first = document[0];
  CHECK(first.at("name") == "conv1d_dilated_strided/cudnn/fp32");
  CHECK(first.at("unit") == "us");
  CHECK(first.at("value").get<double>() == doctest::Approx(report.results[0].timing->stats.median * 1e6));
  CHECK(first.at("range").get<std::string>().rfind("± ", 0) == 0);
  const std::string extra = first.at("extra");
  CHECK(extra.find("20 samples") != std::string::npos);
  CHECK(extra.find("implementation cudnn:IMPLICIT_PRECOMP_GEMM") != std::string::npos);
  CHECK(extra.find("floor") != std::string::npos);

  // The TF32 request that ran FMA says so.
  const ordered_json& fallback = document[1];
  CHECK(fallback.at("name") == "conv1d_dilated_strided/cuda:direct/tf32");
  CHECK(fallback.at("extra").get<std::string>().find("math fp32 (tf32 requested)") != std::string::npos);
  CHECK(fallback.at("extra").get<std::string>().find("warning: suspicious") != std::string::npos);
}

TEST_CASE("bencher: a report without timed results is an empty list") {
  kbench::RunReport report = kbench::test::fixture_report();
  for (kbench::Result& r : report.results) r.timing.reset();
  CHECK(bencher_document(report) == ordered_json::array());
}

TEST_CASE("bench names: fp32 nchw as before, other data suffixed with dtype and layout") {
  kbench::Result r;
  r.workload = "w";
  r.backend = "cuda";
  r.variant = "igemm";
  CHECK(kbench::report::benchmark_name(r) == "w/cuda:igemm/fp32");
  r.dtype = kbench::DType::bf16;
  r.layout = kbench::Layout::nhwc;
  CHECK(kbench::report::benchmark_name(r) == "w/cuda:igemm/fp32/bf16-nhwc");
  r.dtype = kbench::DType::fp32;  // channels last alone is another series too
  CHECK(kbench::report::benchmark_name(r) == "w/cuda:igemm/fp32/fp32-nhwc");
}
