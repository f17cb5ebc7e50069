// Joining results documents (`kbench merge`): three shards of a run merged equal the unsharded run,
// through the JSON documents as the command reads them; documents of incomparable runs are refused
// with the files and the field named.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fake_backend.hpp"
#include "reference/reference_backend.hpp"
#include "report/json_report.hpp"
#include "report/merge.hpp"
#include "run/run_config.hpp"
#include "run/runner.hpp"
#include "run/shard.hpp"

using namespace kbench;

namespace {

std::vector<Workload> three_workloads() {
  std::vector<Workload> workloads;
  for (const char* name : {"alpha", "beta", "gamma"}) {
    Workload w;
    w.name = name;
    w.problem = testing::small_problem();
    w.problem.out_channels *= 1 + static_cast<std::int64_t>(workloads.size());  // three problems, groups still divide
    workloads.push_back(w);
  }
  return workloads;
}

// A run of 3 workloads x 2 backends x 2 math modes (12 items) on fake backends.
RunReport unsharded_run() {
  Registry registry;
  registry.add(make_reference_backend());
  for (const char* name : {"fake_a", "fake_b"}) {
    testing::FakeBackendConfig fake;
    fake.name = name;
    registry.add(std::make_unique<testing::FakeBackend>(fake));
  }
  RunConfig config;
  config.backends = parse_backend_list("fake_a,fake_b");
  config.math_modes = {MathMode::fp32, MathMode::tf32};
  config.seed = 7;
  config.measure.warmups = 0;
  config.measure.iterations = 2;
  config.peaks = *find_device("h100-sxm");
  return run_workloads(three_workloads(), registry, config);
}

// What a shard's run holds: every workload's analysis, and the results of the items it selects
// (numbered as the runner walks the product). Stands in for the runner's --shard until it has one.
RunReport shard_of(const RunReport& full, Shard shard) {
  RunReport part = full;
  part.results.clear();
  const auto& backends = full.settings.backends;
  const auto& maths = full.settings.math_modes;
  for (const Result& r : full.results) {
    const auto w = std::find_if(full.workloads.begin(), full.workloads.end(),
                                [&](const WorkloadSummary& s) { return s.workload.name == r.workload; });
    const auto b = std::find(backends.begin(), backends.end(), r.backend);
    const auto m = std::find(maths.begin(), maths.end(), r.math_requested);
    const std::size_t item =
        shard_item(static_cast<std::size_t>(w - full.workloads.begin()), static_cast<std::size_t>(b - backends.begin()),
                   static_cast<std::size_t>(m - maths.begin()), backends.size(), maths.size());
    if (shard.selects(item)) part.results.push_back(r);
  }
  return part;
}

// Through the document, as `kbench merge` reads files.
RunReport round_trip(const RunReport& report) { return read_json_report(report_to_json(report)); }

}  // namespace

TEST_SUITE("merge") {
  TEST_CASE("merge: three shards merged equal the unsharded run, result for result") {
    const RunReport full = unsharded_run();
    REQUIRE(full.results.size() == 12);
    std::vector<NamedReport> parts;
    std::size_t total = 0;
    for (int k = 1; k <= 3; ++k) {
      RunReport part = round_trip(shard_of(full, Shard{k, 3}));
      CHECK(part.results.size() == 4);
      total += part.results.size();
      parts.push_back({"shard" + std::to_string(k) + ".json", part});
    }
    CHECK(total == 12);
    // Given in any order, the merge lists results as the unsharded run does.
    std::swap(parts[0], parts[2]);
    const RunReport merged = merge_reports(parts);
    const nlohmann::ordered_json expected = report_to_json(round_trip(full));
    const nlohmann::ordered_json got = report_to_json(merged);
    CHECK(got["results"] == expected["results"]);
    CHECK(got["workloads"] == expected["workloads"]);
    CHECK(got["settings"] == expected["settings"]);
    CHECK(got["notes"] == expected["notes"]);
    // And a merged document reads back like any other.
    CHECK(report_to_json(round_trip(merged)) == got);
  }

  TEST_CASE("merge: workloads once, results all kept, notes once each, interrupted if any was") {
    RunReport a = round_trip(unsharded_run());
    RunReport b = a;
    a.notes = {"one", "two"};
    b.notes = {"two", "three"};
    b.interrupted = true;
    b.results.resize(1);
    const RunReport merged = merge_reports({{"a.json", a}, {"b.json", b}});
    CHECK(merged.workloads.size() == 3);
    CHECK(merged.results.size() == 13);
    CHECK(merged.notes == std::vector<std::string>{"one", "two", "three"});
    CHECK(merged.interrupted);
  }

  TEST_CASE("merge: runs on other hosts or devices are kept, and said") {
    RunReport a = round_trip(unsharded_run());
    RunReport b = a;
    b.host = "other-host";
    b.started_at = "2000-01-01T00:00:00Z";
    const RunReport merged = merge_reports({{"a.json", a}, {"b.json", b}});
    CHECK(merged.started_at == "2000-01-01T00:00:00Z");
    CHECK(merged.host == a.host);
    CHECK(std::find(merged.notes.begin(), merged.notes.end(), "merged from runs on hosts " + a.host + ", other-host") !=
          merged.notes.end());
  }

  TEST_CASE("merge: mixed versions, settings or peaks are refused, naming the files and the field") {
    const RunReport base = round_trip(unsharded_run());
    const auto refused = [&](auto edit, const std::string& field) {
      CAPTURE(field);
      RunReport other = base;
      edit(other);
      try {
        merge_reports({{"a.json", base}, {"b.json", other}});
        FAIL("merged");
      } catch (const InputError& error) {
        const std::string message = error.what();
        CHECK(message.starts_with("merge: a.json and b.json differ in " + field + " ("));
      }
    };
    refused([](RunReport& r) { r.kbench_version = "0.0.1"; }, "kbench_version");
    refused([](RunReport& r) { r.settings.seed = 8; }, "settings.seed");
    refused([](RunReport& r) { r.settings.math_modes = {MathMode::fp32}; }, "settings.math_modes");
    refused([](RunReport& r) { r.settings.backends = {"fake_a"}; }, "settings.backends");
    refused([](RunReport& r) { r.settings.measure.iterations = 5; }, "settings.iterations");
    refused([](RunReport& r) { r.settings.measure.warmups = 5; }, "settings.warmups");
    refused([](RunReport& r) { r.settings.measure.time_budget_s = 1; }, "settings.time_budget_s");
    refused([](RunReport& r) { r.settings.measure.timing.cold = false; }, "settings.cold");
    refused([](RunReport& r) { r.settings.measure.timing.graph = true; }, "settings.graph");
    refused([](RunReport& r) { r.settings.verify_points = 1; }, "settings.verify_points");
    refused([](RunReport& r) { r.peaks.bandwidth_Bps *= 2; }, "peaks.bandwidth_GBps");
    refused([](RunReport& r) { r.peaks.tf32_flops *= 2; }, "peaks.tf32_TFLOPs");
    refused([](RunReport& r) { r.peaks.name = "Other GPU"; }, "peaks.name");
    refused([](RunReport& r) { r.peaks_from_target = !r.peaks_from_target; }, "floors_for_target");
    CHECK_THROWS_WITH_AS(merge_reports({}), doctest::Contains("no results documents"), InputError);
  }

  TEST_CASE("merge: one name described as two different workloads is refused") {
    const RunReport a = round_trip(unsharded_run());
    RunReport b = a;
    b.workloads[1].workload.problem.out_channels = 9;
    CHECK_THROWS_WITH_AS(
        merge_reports({{"a.json", a}, {"b.json", b}}),
        doctest::Contains("workload 'beta' is described differently by a.json and b.json (its problem)"), InputError);
  }
}
