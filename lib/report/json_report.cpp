// The kbench.results/1 document: its top level, the run's settings and peaks, and the two entry
// points. Every field is documented in docs/json-schema.md and docs/kbench.results-1.schema.json;
// tests/unit/test_results_schema_docs.cpp checks both against what the writer emits.
#include "report/json_report.hpp"

#include <fmt/format.h>

#include <ostream>

#include "core/error.hpp"
#include "report/json_value.hpp"
#include "report/reporter.hpp"
#include "report/result_view.hpp"
#include "report/results_json.hpp"

namespace kbench {

using namespace json_value;

void to_json(ojson& j, const DevicePeaks& p) {
  j = {
      {"name", p.name},
      {"key", p.key},
      {"source", p.source},
      {"bandwidth_Bps", p.bandwidth_Bps},
      {"fp32_flops", p.fp32_flops},
      {"tf32_flops", p.tf32_flops},
      // As the floors use them: a derived figure where the source had none (DevicePeaks::half_tensor_flops).
      {"fp16_tensor_flops", p.half_tensor_flops(DType::fp16)},
      {"bf16_tensor_flops", p.half_tensor_flops(DType::bf16)},
      {"fp16_flops", p.fp16_vector_flops()},
      {"sms", p.sms},
      {"l2_bytes", p.l2_bytes},
  };
}

void from_json(const ojson& j, DevicePeaks& p) {
  read(j, "name", p.name);
  read(j, "key", p.key);
  read(j, "source", p.source);
  read(j, "bandwidth_Bps", p.bandwidth_Bps);
  read(j, "fp32_flops", p.fp32_flops);
  read(j, "tf32_flops", p.tf32_flops);
  // Absent from documents before half precision: 0 reads as "derive it" (DevicePeaks::half_tensor_flops).
  read_optional(j, "fp16_tensor_flops", p.fp16_tensor_flops);
  read_optional(j, "bf16_tensor_flops", p.bf16_tensor_flops);
  read_optional(j, "fp16_flops", p.fp16_flops);
  read(j, "sms", p.sms);
  read(j, "l2_bytes", p.l2_bytes);
}

void to_json(ojson& j, const RunSettings& s) {
  j = {
      {"backends", s.backends},
      {"math_modes", s.math_modes},
      {"seed", s.seed},
      {"verify_points", s.verify_points},
      {"warmups", s.measure.warmups},
      {"discarded", s.measure.discarded},
      {"iterations", s.measure.iterations},
      {"time_budget_s", s.measure.time_budget_s},
      {"cold", s.measure.timing.cold},
      {"graph", s.measure.timing.graph},
  };
}

void from_json(const ojson& j, RunSettings& s) {
  read(j, "backends", s.backends);
  read(j, "math_modes", s.math_modes);
  read(j, "seed", s.seed);
  read(j, "verify_points", s.verify_points);
  read(j, "warmups", s.measure.warmups);
  read(j, "discarded", s.measure.discarded);
  read(j, "iterations", s.measure.iterations);
  read(j, "time_budget_s", s.measure.time_budget_s);
  read(j, "cold", s.measure.timing.cold);
  read(j, "graph", s.measure.timing.graph);
}

namespace {

// A result's figures that need its workload's metrics and floors.
ojson result_json(const Result& r, const RunReport& report) {
  ojson j = r;
  const report::ResultView view = report::view_result(r, report);
  if (view.achieved_flops && view.achieved_Bps)
    j["achieved"] = {{"tflops", *view.achieved_flops / 1e12}, {"GBps", *view.achieved_Bps / 1e9}};
  if (view.headroom) j["headroom"] = *view.headroom;
  return j;
}

}  // namespace

void to_json(ojson& j, const RunReport& report) {
  ojson results = ojson::array();
  for (const Result& result : report.results) results.push_back(result_json(result, report));
  j = {
      {"schema", kResultsSchemaId},
      {"kbench_version", report.kbench_version},
      {"build", report.build},
      {"started_at", report.started_at},
      {"host", report.host},
      {"host_memory", {{"peak_rss_bytes", report.peak_rss_bytes}}},
      {"device", report.device},
      {"host_cpu", report.host_cpu},
      {"peaks", report.peaks},
      {"floors_for_target", report.peaks_from_target},
      {"settings", report.settings},
      {"interrupted", report.interrupted},
      {"notes", report.notes},
      {"workloads", report.workloads},
      {"results", std::move(results)},
  };
}

void from_json(const ojson& j, RunReport& report) {
  const std::string schema = text(member(j, "schema"));
  if (schema != kResultsSchemaId)
    refuse(member(j, "schema"),
           fmt::format("'{}' is not a schema this kbench reads; expected '{}'", schema, kResultsSchemaId));
  read(j, "kbench_version", report.kbench_version);
  read_optional(j, "build", report.build);  // absent in files from before it existed
  read(j, "started_at", report.started_at);
  read(j, "host", report.host);
  if (has(j, "host_memory")) read(member(j, "host_memory"), "peak_rss_bytes", report.peak_rss_bytes);  // likewise
  read(j, "device", report.device);
  read_optional(j, "host_cpu", report.host_cpu);  // absent in older files
  read(j, "peaks", report.peaks);
  read(j, "floors_for_target", report.peaks_from_target);
  read(j, "settings", report.settings);
  read(j, "interrupted", report.interrupted);
  read(j, "notes", report.notes);
  read(j, "workloads", report.workloads);
  read(j, "results", report.results);
  // A result from before half precision ran its workload's data.
  const ojson& results = member(j, "results");
  for (std::size_t i = 0; i < report.results.size(); ++i) {
    Result& result = report.results[i];
    const WorkloadSummary* summary = report.find_workload(result.workload);
    if (!summary) continue;
    if (!has(results[i], "dtype")) result.dtype = summary->workload.problem.dtype;
    if (!has(results[i], "layout")) result.layout = summary->workload.problem.layout;
    if (!has(results[i], "pass")) result.pass = summary->workload.problem.pass;
  }
}

nlohmann::ordered_json report_to_json(const RunReport& report) { return report; }

RunReport read_json_report(const nlohmann::ordered_json& document) {
  const ReadingDocument reading(document);
  try {
    return as<RunReport>(document);
  } catch (const nlohmann::ordered_json::exception& e) {
    // from_json checks every value before nlohmann converts it: this is only for one it missed.
    throw InputError(fmt::format("results JSON: {}", e.what()));
  }
}

void write_json_report(const RunReport& report, std::ostream& out) {
  // Invalid UTF-8 (a byte string from a driver message, say) is replaced rather than thrown on.
  out << report_to_json(report).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

}  // namespace kbench
