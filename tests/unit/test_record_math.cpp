// Published records beside results by math (report/record_math.hpp): KernelBench's fp32 records ran with
// TF32 allowed, so beside `--math fp32` results a report must say so, and beside tf32 results it need not.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "report/record_math.hpp"

using kbench::MathMode;
using kbench::PublishedRecord;
using kbench::Result;
using kbench::report::record_math_note;
using kbench::report::record_math_text;

namespace {

PublishedRecord record(std::optional<MathMode> math) {
  return {"NVIDIA H100 80GB HBM3", "PyTorch eager", 2.2, -1, "KernelBench", math};
}

Result result(MathMode requested) {
  Result r;
  r.math_requested = requested;
  r.math_used = requested;
  return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("a record beside results of other math says so, beside results of its own math nothing is said") {
    const Result fp32 = result(MathMode::fp32), tf32 = result(MathMode::tf32);
    const std::vector<PublishedRecord> kernelbench{record(MathMode::tf32), record(MathMode::tf32)};

    const std::string only_fp32 = record_math_note(kernelbench, {&fp32});
    CAPTURE(only_fp32);
    CHECK(contains(only_fp32, "the records ran under math tf32 and this run's results under fp32"));
    CHECK(contains(only_fp32, "not the same arithmetic"));
    CHECK(contains(only_fp32, "--math tf32"));

    CHECK(record_math_note(kernelbench, {&tf32}).empty());
    CHECK(record_math_note(kernelbench, {&fp32, &tf32}).empty());  // the tf32 results are beside them

    // An fp32 record beside tf32 results only: the same rule the other way.
    const std::string other_way = record_math_note({record(MathMode::fp32)}, {&tf32});
    CHECK(contains(other_way, "the records ran under math fp32 and this run's results under tf32"));
    CHECK_FALSE(contains(other_way, "--math tf32"));
  }

  TEST_CASE("records that do not state their math are named as such, and nothing is said without records or results") {
    const Result fp32 = result(MathMode::fp32);
    CHECK(contains(record_math_note({record(std::nullopt)}, {&fp32}),
                   "the records do not say what math they ran under; this run's results: fp32"));
    CHECK(contains(record_math_note({record(MathMode::fp32), record(std::nullopt)}, {&fp32}),
                   "some records do not say what math they ran under"));
    CHECK(record_math_note({}, {&fp32}).empty());
    CHECK(record_math_note({record(MathMode::tf32)}, {}).empty());
    CHECK(record_math_text(record(MathMode::tf32)) == "tf32");
    CHECK(record_math_text(record(std::nullopt)) == "not stated");
  }
}
