// The JSON report: its contract (numbers as numbers, no timing for a wrong result), the reader
// that inverts it, and conformance with docs/kbench.results-1.schema.json checked by python3's
// jsonschema (installed here and in CI; the test says so, loudly, if it is not).
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/error.hpp"
#include "report/json_report.hpp"
#include "report/reporter.hpp"
#include "results_json_fixture.hpp"
#include "test_report_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string text_of(const kbench::RunReport& report) {
  std::ostringstream out;
  kbench::write_json_report(report, out);
  return out.str();
}

json document_of(const kbench::RunReport& report) { return json::parse(text_of(report)); }

// What `kbench report FILE` does: the text parsed in its order, then read.
kbench::RunReport read_text(const std::string& text) {
  return kbench::read_json_report(nlohmann::ordered_json::parse(text));
}

const json& result_named(const json& document, const std::string& backend, const std::string& implementation) {
  for (const json& result : document.at("results"))
    if (result.at("backend") == backend && result.at("implementation") == implementation) return result;
  FAIL("no result " << backend << "/" << implementation);
  return document;
}

// A scratch directory removed when the test ends.
struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("kbench-report-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool python_jsonschema_available() { return run_shell("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0; }

// 0 when `document` validates against the schema file; the validator's complaint lands in `log`.
int validate_with_schema(const json& document, const TempDir& dir, std::string& log) {
  const fs::path doc_path = dir.path / "report.json";
  const fs::path log_path = dir.path / "validate.log";
  std::ofstream(doc_path) << document.dump(2);
  const fs::path schema = fs::path(KBENCH_SOURCE_DIR) / "docs" / "kbench.results-1.schema.json";
  const std::string script =
      "import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "validator = jsonschema.validators.validator_for(schema)\n"
      "validator.check_schema(schema)\n"
      "validator(schema).validate(json.load(open(sys.argv[2])))\n";
  const int rc = run_shell("python3 -c '" + script + "' '" + schema.string() + "' '" + doc_path.string() + "' >'" +
                           log_path.string() + "' 2>&1");
  std::ifstream in(log_path);
  log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return rc;
}

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("JSON: numbers are numbers, and a wrong result has no timing") {
    const json doc = document_of(kbench::test::fixture_report());
    CHECK(doc.at("schema") == "kbench.results/1");
    CHECK(doc.at("peaks").at("bandwidth_Bps").is_number());
    CHECK(doc.at("settings").at("seed") == 42);
    const json& workload = doc.at("workloads").at(0);
    CHECK(workload.at("flops").is_number());
    CHECK(workload.at("output_shape") == json::array({64, 128, 174758}));
    CHECK(workload.at("problem").at("dilation") == json::array({4}));
    CHECK(workload.at("floor").at("fp32").at("binds") == "compute");
    CHECK(workload.at("records").at(1).at("stdev_ms").is_null());
    CHECK(workload.at("records").at(0).at("math") == "tf32");  // the math the record ran under
    CHECK(workload.at("records").at(1).at("math").is_null());  // not stated

    const json& ok = result_named(doc, "cudnn", "cudnn:IMPLICIT_PRECOMP_GEMM");
    CHECK(ok.at("timing").at("stats").at("median").is_number());
    CHECK(ok.at("timing").at("samples_s").size() == 20);
    CHECK(ok.at("achieved").at("tflops").is_number());
    CHECK(ok.at("headroom").get<double>() > 1.0);
    CHECK(ok.at("properties").at("workspace_bytes") == "1048576");

    const json& wrong = result_named(doc, "cuda", "rows_vectorized");
    CHECK(wrong.at("status") == "wrong");
    CHECK(wrong.at("timing").is_null());
    CHECK(wrong.at("achieved").is_null());
    CHECK(wrong.at("headroom").is_null());
    // Non-finite comparison figures become null: JSON has no NaN.
    CHECK(wrong.at("verification").at("max_abs_error").is_null());
    CHECK(wrong.at("verification").at("first_mismatch").at("got").is_null());
    CHECK(wrong.at("verification").at("first_mismatch").at("expected") == 0.1875);
    CHECK(wrong.at("verification").at("passed") == false);

    const json& skipped = result_named(doc, "reference", "");
    CHECK(skipped.at("verification").is_null());
    CHECK(skipped.at("timing").is_null());
  }

  TEST_CASE("JSON round trip: reading a report back and writing it gives the same document") {
    const kbench::RunReport original = kbench::test::fixture_report();
    const json first = document_of(original);
    const kbench::RunReport read = kbench::read_json_report(first);
    CHECK(document_of(read) == first);

    CHECK(read.started_at == original.started_at);
    CHECK(read.build == original.build);
    CHECK(read.settings.seed == original.settings.seed);
    CHECK(read.settings.math_modes == original.settings.math_modes);
    REQUIRE(read.workloads.size() == 2);
    CHECK(read.workloads[1].workload.problem == original.workloads[1].workload.problem);
    CHECK(read.workloads[1].batch_overridden);
    CHECK(read.workloads[1].spec_batch == 16);
    CHECK(read.workloads[0].workload.records[1].stdev_ms < 0);
    CHECK(read.workloads[0].workload.records[0].math == kbench::MathMode::tf32);
    CHECK_FALSE(read.workloads[0].workload.records[1].math.has_value());
    REQUIRE(read.results.size() == original.results.size());
    const kbench::Result& ok = read.results[0];
    REQUIRE(ok.timing.has_value());
    CHECK(ok.timing->samples_s == original.results[0].timing->samples_s);
    CHECK(ok.timing->stats.median == original.results[0].timing->stats.median);
    const kbench::Result& wrong = read.results[2];
    CHECK(wrong.status == kbench::ResultStatus::wrong);
    CHECK_FALSE(wrong.timing.has_value());
    REQUIRE(wrong.verification.has_value());
    CHECK(std::isnan(wrong.verification->comparison.first_mismatch_got));
    CHECK(wrong.verification->comparison.first_mismatch == 4095);
    CHECK(read.results[1].math_requested == kbench::MathMode::tf32);
    CHECK(read.results[1].math_used == kbench::MathMode::fp32);
  }

  TEST_CASE("JSON reader: a document from before the build field reads with an empty build") {
    json older = document_of(kbench::test::fixture_report());
    older.erase("build");
    const kbench::RunReport read = kbench::read_json_report(older);
    CHECK(read.build.empty());
    CHECK(read.results.size() == kbench::test::fixture_report().results.size());
  }

  TEST_CASE("JSON reader: a document from before compute_units reads as FFMA (fp32) and TF32 floors") {
    json older = document_of(kbench::test::fixture_report());
    for (json& workload : older["workloads"])
      for (const char* math : {"fp32", "tf32"}) workload["floor"][math].erase("compute_units");
    const kbench::RunReport read = kbench::read_json_report(older);
    REQUIRE_FALSE(read.workloads.empty());
    CHECK(read.workloads[0].floor_fp32.compute_units == kbench::ComputeUnits::ffma);
    CHECK(read.workloads[0].floor_tf32.compute_units == kbench::ComputeUnits::tf32);
    // The current writer names the units: the fixture's Hopper-class peaks make 3xTF32 the fp32 peak.
    const kbench::RunReport current = kbench::read_json_report(document_of(kbench::test::fixture_report()));
    CHECK(current.workloads[0].floor_fp32.compute_units == kbench::ComputeUnits::split_tf32);
  }

  TEST_CASE(
      "JSON: dtype, layout and accumulation on workloads and results, half peaks, and older documents read as nchw") {
    kbench::RunReport report = kbench::test::fixture_report();
    report.workloads[0].workload.problem.dtype = kbench::DType::fp16;
    report.workloads[0].workload.problem.layout = kbench::Layout::nhwc;
    for (kbench::Result& r : report.results)
      if (r.workload == report.workloads[0].workload.name) {
        r.dtype = kbench::DType::fp16;
        r.layout = kbench::Layout::nhwc;
        r.accumulation = "fp32";
      }
    const json doc = document_of(report);
    CHECK(doc["workloads"][0]["problem"]["dtype"] == "fp16");
    CHECK(doc["workloads"][0]["problem"]["layout"] == "nhwc");
    CHECK(doc["workloads"][1]["problem"]["layout"] == "nchw");
    const json& first = doc["results"][0];
    REQUIRE(first["workload"] == report.workloads[0].workload.name);
    CHECK(first["dtype"] == "fp16");
    CHECK(first["layout"] == "nhwc");
    CHECK(first["accumulation"] == "fp32");
    CHECK(doc["peaks"].contains("fp16_tensor_flops"));
    CHECK(doc["peaks"].contains("bf16_tensor_flops"));
    CHECK(doc["peaks"].contains("fp16_flops"));
    const kbench::RunReport read = kbench::read_json_report(doc);
    CHECK(read.workloads[0].workload.problem.layout == kbench::Layout::nhwc);
    CHECK(read.results[0].dtype == kbench::DType::fp16);
    CHECK(read.results[0].layout == kbench::Layout::nhwc);
    CHECK(read.results[0].accumulation == "fp32");
    CHECK(document_of(read) == doc);

    // Before half precision: no layout anywhere, no result dtype, no half peaks.
    json older = doc;
    for (json& workload : older["workloads"]) workload["problem"].erase("layout");
    for (json& result : older["results"])
      for (const char* key : {"dtype", "layout", "accumulation"}) result.erase(key);
    for (const char* key : {"fp16_tensor_flops", "bf16_tensor_flops", "fp16_flops"}) older["peaks"].erase(key);
    const kbench::RunReport old = kbench::read_json_report(older);
    CHECK(old.workloads[0].workload.problem.layout == kbench::Layout::nchw);
    CHECK(old.results[0].layout == kbench::Layout::nchw);
    CHECK(old.results[0].dtype == kbench::DType::fp16);  // its workload's
    CHECK(old.results[0].accumulation.empty());
    CHECK(old.peaks.half_tensor_flops(kbench::DType::fp16) == doctest::Approx(2 * old.peaks.tf32_flops));

    json bad_layout = doc;
    bad_layout["results"][0]["layout"] = "ndhwc";
    CHECK_THROWS_WITH_AS(kbench::read_json_report(bad_layout),
                         doctest::Contains("/results/0/layout: unknown layout 'ndhwc'; expected nchw or nhwc"),
                         kbench::InputError);
    json bad_dtype = doc;
    bad_dtype["results"][0]["dtype"] = "fp8";
    CHECK_THROWS_WITH_AS(kbench::read_json_report(bad_dtype), doctest::Contains("/results/0/dtype: unknown dtype"),
                         kbench::InputError);
  }

  TEST_CASE("JSON reader: bad documents fail with the path of the problem") {
    const json good = document_of(kbench::test::fixture_report());
    const auto message_for = [](const json& doc) -> std::string {
      try {
        kbench::read_json_report(doc);
      } catch (const kbench::InputError& e) {
        return e.what();
      }
      return "";
    };

    json wrong_schema = good;
    wrong_schema["schema"] = "kbench.results/2";
    CHECK(message_for(wrong_schema).find("/schema") != std::string::npos);

    json missing = good;
    missing["results"][0].erase("status");
    CHECK(message_for(missing).find("/results/0/status: missing") != std::string::npos);

    json string_number = good;
    string_number["results"][0]["timing"]["stats"]["median"] = "0.01";
    CHECK(message_for(string_number).find("/results/0/timing/stats/median: expected a number") != std::string::npos);

    json timed_wrong = good;
    timed_wrong["results"][2]["timing"] = good["results"][0]["timing"];
    CHECK(message_for(timed_wrong).find("/results/2/timing") != std::string::npos);

    json bad_rank = good;
    bad_rank["workloads"][0]["problem"]["kernel"] = json::array({3, 3});
    CHECK(message_for(bad_rank).find("/workloads/0/problem/kernel") != std::string::npos);

    json bad_status = good;
    bad_status["results"][1]["status"] = "fine";
    CHECK(message_for(bad_status).find("unknown status 'fine'") != std::string::npos);

    json bad_units = good;
    bad_units["workloads"][0]["floor"]["fp32"]["compute_units"] = "HMMA";
    CHECK(message_for(bad_units) == "results JSON /workloads/0/floor/fp32/compute_units: unknown compute units 'HMMA'; "
                                    "expected FFMA, 3xTF32, TF32, FP16 or BF16");

    CHECK(message_for(json::array()) == "results JSON /: expected an object, got array");
  }

  TEST_CASE("JSON reader: numbers are read strictly, and the path names the value at fault") {
    const json good = document_of(kbench::test::fixture_report());
    const auto message_for = [](const json& doc) -> std::string {
      try {
        kbench::read_json_report(doc);
      } catch (const kbench::InputError& e) {
        return e.what();
      }
      return "";
    };
    json fraction = good;
    fraction["workloads"][0]["problem"]["batch"] = 1.5;
    CHECK(message_for(fraction) == "results JSON /workloads/0/problem/batch: expected an integer, got 1.5");
    json boolean = good;
    boolean["results"][0]["timing"]["stats"]["median"] = true;
    CHECK(message_for(boolean) == "results JSON /results/0/timing/stats/median: expected a number, got boolean");
    json negative = good;
    negative["settings"]["seed"] = -1;
    CHECK(message_for(negative) == "results JSON /settings/seed: expected a non-negative integer, got -1");
    json too_big = good;
    too_big["settings"]["warmups"] = 4294967296;
    CHECK(message_for(too_big) == "results JSON /settings/warmups: integer out of range");
    json not_bool = good;
    not_bool["workloads"][1]["problem"]["bias"] = 1;
    CHECK(message_for(not_bool) == "results JSON /workloads/1/problem/bias: expected true or false, got number");
    // A key holding '/' or '~' is written as a JSON pointer token.
    json odd_key = good;
    odd_key["results"][0]["properties"]["a/b~c"] = 3;
    CHECK(message_for(odd_key) == "results JSON /results/0/properties/a~1b~0c: expected a string, got number");
    json missing_deep = good;
    missing_deep["results"][2]["verification"]["first_mismatch"].erase("index");
    CHECK(message_for(missing_deep) == "results JSON /results/2/verification/first_mismatch/index: missing");
    json not_object = good;
    not_object["workloads"][1] = "w";
    CHECK(message_for(not_object) == "results JSON /workloads/1: expected an object, got string");
    json bad_rounding = good;
    bad_rounding["results"][0]["verification"]["error_bound"]["output_rounding"] = "twice";
    CHECK(message_for(bad_rounding) == "results JSON /results/0/verification/error_bound/output_rounding: unknown "
                                       "output rounding 'twice'; expected bias_added_after");
  }

  TEST_CASE("JSON round trip is byte-identical for a fully populated run and for minimal ones") {
    std::vector<kbench::RunReport> reports = kbench::test::minimal_reports();
    reports.push_back(kbench::test::fully_populated_report());
    for (const kbench::RunReport& report : reports) {
      const std::string written = text_of(report);
      INFO(written);
      CHECK(text_of(read_text(written)) == written);
    }
    // A backend's properties keep their order (a std::map reading would sort them).
    const kbench::RunReport read = read_text(text_of(kbench::test::fully_populated_report()));
    REQUIRE(read.results[0].properties.size() == 2);
    CHECK(read.results[0].properties[0].first == "workspace_bytes");
    // A backend that rounds twice keeps its bound's formula.
    CHECK(read.results[0].verification->bound->output_rounding == kbench::OutputRounding::bias_added_after);
  }

  TEST_CASE("JSON output validates against docs/kbench.results-1.schema.json") {
    if (!python_jsonschema_available()) {
      MESSAGE("SKIPPED: python3 with the jsonschema module is needed (Debian: python3-jsonschema)");
      return;
    }
    TempDir dir;
    std::string log;
    const json doc = document_of(kbench::test::fixture_report());
    CHECK_MESSAGE(validate_with_schema(doc, dir, log) == 0, log);

    for (const kbench::RunReport& minimal : kbench::test::minimal_reports())
      CHECK_MESSAGE(validate_with_schema(document_of(minimal), dir, log) == 0, log);
    CHECK_MESSAGE(validate_with_schema(document_of(kbench::test::fully_populated_report()), dir, log) == 0, log);

    // The schema is strict: each of these breaks it.
    json string_number = doc;
    string_number["results"][0]["timing"]["stats"]["median"] = "0.01";
    CHECK(validate_with_schema(string_number, dir, log) != 0);
    json missing_key = doc;
    missing_key["workloads"][0].erase("floor");
    CHECK(validate_with_schema(missing_key, dir, log) != 0);
    json extra_key = doc;
    extra_key["results"][0]["speed"] = 1;
    CHECK(validate_with_schema(extra_key, dir, log) != 0);
    json bad_status = doc;
    bad_status["results"][0]["status"] = "fine";
    CHECK(validate_with_schema(bad_status, dir, log) != 0);
    json timed_wrong = doc;
    timed_wrong["results"][2]["timing"] = doc["results"][0]["timing"];
    CHECK(validate_with_schema(timed_wrong, dir, log) != 0);
  }
}
