// `--format gbench`: google/benchmark's JSON output, checked against the keys gbench writes and
// its compare.py reads (tests/data/formats/gbench-output.schema.json) and for the mapping itself:
// a repetition per sample, gbench's aggregates, errors and skips as gbench marks them.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>

#include "report/benchmark_name.hpp"
#include "report/reporter.hpp"
#include "schema_validation.hpp"
#include "test_report_fixture.hpp"

namespace {

using nlohmann::ordered_json;

ordered_json gbench_document(const kbench::RunReport& report) {
  std::ostringstream out;
  kbench::write_report(report, kbench::ReportFormat::gbench, out);
  return ordered_json::parse(out.str());
}

std::vector<ordered_json> entries_named(const ordered_json& document, const std::string& name) {
  std::vector<ordered_json> found;
  for (const ordered_json& entry : document.at("benchmarks"))
    if (entry.at("name") == name) found.push_back(entry);
  return found;
}

}  // namespace

TEST_CASE("gbench: the document has google/benchmark's required keys (JSON Schema)") {
  const ordered_json document = gbench_document(kbench::test::fixture_report());
  const auto verdict = kbench::test::validate_against_schema(
      document, kbench::test::test_data_path("formats/gbench-output.schema.json"));
  INFO(verdict.log);
  CHECK(verdict.valid);
}

TEST_CASE("gbench: the schema check can fail") {
  ordered_json document = gbench_document(kbench::test::fixture_report());
  document["benchmarks"][0].erase("real_time");
  CHECK_FALSE(
      kbench::test::validate_against_schema(document, kbench::test::test_data_path("formats/gbench-output.schema.json"))
          .valid);
  document = gbench_document(kbench::test::fixture_report());
  document["benchmarks"][0]["run_type"] = "aggregate";  // an aggregate without aggregate_name
  CHECK_FALSE(
      kbench::test::validate_against_schema(document, kbench::test::test_data_path("formats/gbench-output.schema.json"))
          .valid);
}

TEST_CASE("gbench: every sample is a repetition, followed by mean, median, stddev and cv") {
  const kbench::RunReport report = kbench::test::fixture_report();
  const kbench::Result& cudnn = report.results[0];  // ok, 20 samples
  const ordered_json document = gbench_document(report);
  const std::string name = kbench::report::benchmark_name(cudnn);
  CHECK(name == "conv1d_dilated_strided/cudnn/fp32");

  const auto repetitions = entries_named(document, name);
  REQUIRE(repetitions.size() == cudnn.timing->samples_s.size());
  for (std::size_t i = 0; i < repetitions.size(); ++i) {
    const ordered_json& r = repetitions[i];
    CHECK(r.at("run_type") == "iteration");
    CHECK(r.at("repetition_index") == i);
    CHECK(r.at("repetitions") == repetitions.size());
    CHECK(r.at("iterations") == 1);
    CHECK(r.at("time_unit") == "us");
    CHECK(r.at("real_time").get<double>() == doctest::Approx(cudnn.timing->samples_s[i] * 1e6));
    CHECK(r.at("cpu_time") == r.at("real_time"));
    CHECK(r.at("label") == "cudnn:IMPLICIT_PRECOMP_GEMM fp32");
  }

  const auto aggregate = [&](const std::string& which) {
    const auto found = entries_named(document, name + "_" + which);
    REQUIRE(found.size() == 1);
    CHECK(found[0].at("run_type") == "aggregate");
    CHECK(found[0].at("run_name") == name);
    CHECK(found[0].at("aggregate_name") == which);
    return found[0];
  };
  const kbench::Statistics& stats = cudnn.timing->stats;
  CHECK(aggregate("mean").at("real_time").get<double>() == doctest::Approx(stats.mean * 1e6));
  CHECK(aggregate("median").at("real_time").get<double>() == doctest::Approx(stats.median * 1e6));
  CHECK(aggregate("stddev").at("real_time").get<double>() == doctest::Approx(stats.stdev * 1e6));
  const ordered_json cv = aggregate("cv");
  CHECK(cv.at("aggregate_unit") == "percentage");
  CHECK(cv.at("real_time").get<double>() == doctest::Approx(stats.stdev / stats.mean));
  // Rates as gbench counters, from the median.
  const kbench::ProblemMetrics& metrics = report.workloads[0].metrics;
  CHECK(aggregate("median").at("flops_per_second").get<double>() == doctest::Approx(metrics.flops / stats.median));
}

TEST_CASE("gbench: results that are not ok carry gbench's error or skip markers and no time") {
  const kbench::RunReport report = kbench::test::fixture_report();
  const ordered_json document = gbench_document(report);
  std::map<std::string, ordered_json> by_label;
  for (const ordered_json& entry : document.at("benchmarks")) {
    if (entry.value("error_occurred", false)) by_label["error:" + entry.at("name").get<std::string>()] = entry;
    if (entry.value("skipped", false)) by_label["skip:" + entry.at("name").get<std::string>()] = entry;
  }
  // The wrong kernel: an error, and its (wrongly kept) timing is nowhere in the document.
  const ordered_json& wrong = by_label.at("error:conv1d_dilated_strided/cuda:rows/fp32");
  CHECK(wrong.at("error_message").get<std::string>().rfind("wrong: 37 of 4096", 0) == 0);
  CHECK(wrong.at("real_time") == 0.0);
  CHECK(document.dump().find(std::to_string(kbench::test::kWrongResultMedian_s * 1e6).substr(0, 6)) ==
        std::string::npos);
  CHECK(by_label.count("error:conv_transpose3d_dilated/cudnn/fp32") == 1);  // failed
  CHECK(by_label.count("skip:conv_transpose3d_dilated/cuda/fp32") == 1);    // unsupported
  CHECK(by_label.count("skip:conv_transpose3d_dilated/triton/fp32") == 1);  // unavailable
  CHECK(by_label.at("skip:conv_transpose3d_dilated/reference/fp32").at("skip_message") == "verified, not timed");
}

TEST_CASE("gbench: families are workloads, instances their results, in run order") {
  const ordered_json document = gbench_document(kbench::test::fixture_report());
  std::map<std::string, std::pair<int, int>> placement;
  for (const ordered_json& entry : document.at("benchmarks"))
    placement[entry.at("run_name").get<std::string>()] = {entry.at("family_index").get<int>(),
                                                          entry.at("per_family_instance_index").get<int>()};
  CHECK(placement.at("conv1d_dilated_strided/cudnn/fp32") == std::pair{0, 0});
  CHECK(placement.at("conv1d_dilated_strided/cuda:direct/tf32") == std::pair{0, 1});
  CHECK(placement.at("conv_transpose3d_dilated/cudnn/tf32") == std::pair{1, 0});
  CHECK(placement.at("ghost_workload/cudnn/fp32") == std::pair{2, 0});
}

TEST_CASE("gbench: the context says what kbench ran on") {
  const ordered_json context = gbench_document(kbench::test::fixture_report()).at("context");
  CHECK(context.at("date") == "2026-01-02T03:04:05Z");
  CHECK(context.at("host_name") == "testhost");
  CHECK(context.at("executable") == "kbench");
  CHECK(context.at("json_schema_version") == 1);
  CHECK(context.at("kbench_device") == "Test GPU (fake, 132 SMs)");
  CHECK(context.at("kbench_seed") == "42");
  CHECK(context.at("kbench_math_modes") == "fp32,tf32");
}
