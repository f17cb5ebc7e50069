// RunReport::find_workload and ResultsByWorkload: lookups by name that every reporter makes once per
// result, so they must not scan (N results would cost N²), and must stay right as the report changes.
#include <doctest/doctest.h>

#include <string>

#include "report/result_view.hpp"
#include "run/result.hpp"

namespace {

kbench::WorkloadSummary summary_named(const std::string& name) {
  kbench::WorkloadSummary summary;
  summary.workload.name = name;
  return summary;
}

kbench::Result result_of(const std::string& workload, const std::string& backend) {
  kbench::Result result;
  result.workload = workload;
  result.backend = backend;
  return result;
}

}  // namespace

TEST_CASE("find_workload: found, absent, after a workload is added, renamed in place or removed") {
  kbench::RunReport report;
  CHECK(report.find_workload("a") == nullptr);
  report.workloads.push_back(summary_named("a"));
  report.workloads.push_back(summary_named("b"));
  CHECK(report.find_workload("b") == &report.workloads[1]);
  CHECK(report.find_workload("c") == nullptr);
  report.workloads.push_back(summary_named("c"));  // the index was built without it
  REQUIRE(report.find_workload("c") != nullptr);
  CHECK(report.find_workload("c")->workload.name == "c");
  report.workloads[0].workload.name = "renamed";  // same size: the index is stale
  CHECK(report.find_workload("a") == nullptr);
  CHECK(report.find_workload("renamed") == &report.workloads[0]);
  report.workloads.pop_back();
  CHECK(report.find_workload("c") == nullptr);
  const kbench::RunReport copy = report;  // a copy finds its own workloads, not the original's
  CHECK(copy.find_workload("b") == &copy.workloads[1]);
}

TEST_CASE("ResultsByWorkload: each workload's results in run order, interleaved or not") {
  kbench::RunReport report;
  report.results = {result_of("a", "x"), result_of("b", "x"), result_of("a", "y"), result_of("c", "x")};
  const kbench::report::ResultsByWorkload grouped(report);
  REQUIRE(grouped.of("a").size() == 2);
  CHECK(grouped.of("a")[0] == &report.results[0]);
  CHECK(grouped.of("a")[1] == &report.results[2]);
  CHECK(grouped.of("c").size() == 1);
  CHECK(grouped.of("missing").empty());
  CHECK(grouped.of("a") == kbench::report::results_for(report, "a"));
}
