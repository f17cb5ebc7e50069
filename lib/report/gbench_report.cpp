// `--format gbench`: the JSON google/benchmark writes (src/json_reporter.cc, "json_schema_version"
// 1), so its tools/compare.py and dashboards built for it read kbench results unchanged.
//
// Mapping (docs/diff-and-reports.md): one benchmark per result, named by benchmark_name(). Each
// timing sample is one repetition (run_type "iteration", iterations 1, real_time = the sample),
// followed by the aggregates gbench adds for repetitions: mean, median, stddev (unit "time") and
// cv (unit "percentage", a fraction as gbench writes it). cpu_time repeats real_time: kbench
// measures device time only, and compare.py needs both. A result that is not ok becomes one entry
// with gbench's own markers: error_occurred + error_message for wrong and failed, skipped +
// skip_message for unsupported, unavailable, skipped and verify-only results.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "report/benchmark_name.hpp"
#include "report/reporter.hpp"
#include "report/result_view.hpp"

namespace kbench {

namespace {

using ojson = nlohmann::ordered_json;

double tool_time(double seconds) { return seconds / report::kSecondsPerToolTimeUnit; }

// gbench writes every double it has; JSON has no NaN, so a rate that cannot be computed is left out.
void add_rates(ojson& entry, const report::ResultView& view, double seconds) {
  if (!view.summary || !(seconds > 0)) return;
  const ProblemMetrics& m = view.summary->metrics;
  entry["bytes_per_second"] = m.bytes() / seconds;
  entry["flops_per_second"] = m.flops / seconds;
}

ojson context_json(const RunReport& report) {
#if defined(NDEBUG)
  const char* build_type = "release";
#else
  const char* build_type = "debug";
#endif
  const RunSettings& s = report.settings;
  std::vector<std::string_view> modes;
  for (MathMode math : s.math_modes) modes.push_back(to_string(math));
  // Host CPU facts gbench records (num_cpus, mhz_per_cpu, caches) describe nothing a GPU timing
  // depends on, and a converted file may be written on another machine: 0 and empty mean unknown.
  ojson context = {
      {"date", report.started_at},
      {"host_name", report.host},
      {"executable", "kbench"},
      {"num_cpus", 0},
      {"mhz_per_cpu", 0},
      {"caches", ojson::array()},
      {"load_avg", ojson::array()},
      {"library_version", "kbench " + report.kbench_version},
      {"library_build_type", build_type},
      {"json_schema_version", 1},
  };
  // gbench's custom context (benchmark::AddCustomContext): string keys and string values.
  context["kbench_device"] = report.device;
  context["kbench_peaks"] = report.peaks.name + (report.peaks.source.empty() ? "" : " (" + report.peaks.source + ")");
  context["kbench_floors_for_target"] = report.peaks_from_target ? "true" : "false";
  context["kbench_seed"] = std::to_string(s.seed);
  context["kbench_math_modes"] = modes.empty() ? std::string("fp32") : fmt::format("{}", fmt::join(modes, ","));
  context["kbench_timing"] = fmt::format("{}, {}", s.measure.timing.cold ? "L2 flushed before each sample" : "warm L2",
                                         s.measure.timing.graph ? "CUDA graph replay" : "stream launches");
  context["kbench_interrupted"] = report.interrupted ? "true" : "false";
  return context;
}

struct Placement {
  int family_index;
  int instance_index;
};

ojson entry_head(const std::string& name, const Placement& at, const char* run_type, int repetitions) {
  return {{"name", name},
          {"family_index", at.family_index},
          {"per_family_instance_index", at.instance_index},
          {"run_name", name},
          {"run_type", run_type},
          {"repetitions", repetitions}};
}

// What ran, in gbench's free-text label: "cudnn:IMPLICIT_PRECOMP_GEMM fp32".
std::string label_of(const Result& r) {
  const std::string& what = r.implementation.empty() ? r.variant : r.implementation;
  return fmt::format("{}{}{}", what, what.empty() ? "" : " ", to_string(r.math_used));
}

void add_timed_result(ojson& benchmarks, const report::ResultView& view, const Placement& at) {
  const Result& r = *view.result;
  const Measurement& m = *view.timing;
  const std::string name = report::benchmark_name(r);
  const int n = static_cast<int>(m.samples_s.size());
  for (int i = 0; i < n; ++i) {
    ojson entry = entry_head(name, at, "iteration", n);
    entry["repetition_index"] = i;
    entry["threads"] = 1;
    entry["iterations"] = 1;
    entry["real_time"] = tool_time(m.samples_s[static_cast<std::size_t>(i)]);
    entry["cpu_time"] = entry["real_time"];
    entry["time_unit"] = report::kToolTimeUnit;
    add_rates(entry, view, m.samples_s[static_cast<std::size_t>(i)]);
    entry["label"] = label_of(r);
    benchmarks.push_back(entry);
  }
  const Statistics& s = m.stats;
  const auto aggregate = [&](const char* aggregate_name, const char* unit, double value, bool rates) {
    ojson entry = entry_head(name + "_" + aggregate_name, at, "aggregate", n);
    entry["run_name"] = name;
    entry["threads"] = 1;
    entry["aggregate_name"] = aggregate_name;
    entry["aggregate_unit"] = unit;
    entry["iterations"] = n;
    entry["real_time"] = value;
    entry["cpu_time"] = value;
    entry["time_unit"] = report::kToolTimeUnit;
    if (rates) add_rates(entry, view, value * report::kSecondsPerToolTimeUnit);
    entry["label"] = label_of(r);
    benchmarks.push_back(entry);
  };
  aggregate("mean", "time", tool_time(s.mean), true);
  aggregate("median", "time", tool_time(s.median), true);
  aggregate("stddev", "time", tool_time(s.stdev), false);
  aggregate("cv", "percentage", s.mean > 0 ? s.stdev / s.mean : 0, false);
}

void add_untimed_result(ojson& benchmarks, const Result& r, const Placement& at) {
  ojson entry = entry_head(report::benchmark_name(r), at, "iteration", 1);
  entry["repetition_index"] = 0;
  entry["threads"] = 1;
  const bool broken = r.status == ResultStatus::wrong || r.status == ResultStatus::failed;
  std::string message(to_string(r.status));
  if (!r.reason.empty()) message += ": " + r.reason;
  if (r.status == ResultStatus::ok) message = "verified, not timed";
  entry[broken ? "error_occurred" : "skipped"] = true;
  entry[broken ? "error_message" : "skip_message"] = message;
  // gbench writes these for a skipped or failed run too, as zeros.
  entry["iterations"] = 0;
  entry["real_time"] = 0.0;
  entry["cpu_time"] = 0.0;
  entry["time_unit"] = report::kToolTimeUnit;
  entry["label"] = label_of(r);
  benchmarks.push_back(entry);
}

}  // namespace

void write_gbench_report(const RunReport& report, std::ostream& out) {
  ojson benchmarks = ojson::array();
  // A family per workload (as a BENCHMARK() registration with its argument sets), an instance per
  // result of it: compare.py and gbench's own sort keep that order.
  std::map<std::string, Placement> next_slot;
  int families = 0;
  for (const Result& r : report.results) {
    auto [slot, added] = next_slot.try_emplace(r.workload, Placement{families, 0});
    if (added) ++families;
    const Placement at = slot->second;
    ++slot->second.instance_index;
    const report::ResultView view = report::view_result(r, report);
    if (view.timing && !view.timing->samples_s.empty())
      add_timed_result(benchmarks, view, at);
    else
      add_untimed_result(benchmarks, r, at);
  }
  const ojson document = {{"context", context_json(report)}, {"benchmarks", benchmarks}};
  out << document.dump(2, ' ', false, ojson::error_handler_t::replace) << '\n';
}

}  // namespace kbench
