// Writes schema kbench.results/1. Every field is documented in docs/json-schema.md; a change here
// must change that page and docs/kbench.results-1.schema.json with it (the report tests validate
// the output against the schema file).
#include "report/json_report.hpp"

#include <cmath>
#include <ostream>

#include "report/reporter.hpp"
#include "report/result_view.hpp"

namespace kbench {

namespace {

using ojson = nlohmann::ordered_json;

// JSON has no NaN or infinity: those are written as null (the schema allows null exactly where a
// value can be non-finite).
ojson number_or_null(double value) { return std::isfinite(value) ? ojson(value) : ojson(nullptr); }

ojson dims_json(const Dims& dims, int rank) {
  ojson array = ojson::array();
  for (int d = 0; d < rank; ++d) array.push_back(dims[d]);
  return array;
}

ojson problem_json(const ConvProblem& p) {
  return {
      {"op", to_string(p.op)},
      {"dtype", to_string(p.dtype)},
      {"layout", to_string(p.layout)},
      {"pass", to_string(p.pass)},
      {"spatial_rank", p.spatial_rank},
      {"batch", p.batch},
      {"in_channels", p.in_channels},
      {"out_channels", p.out_channels},
      {"groups", p.groups},
      {"input", dims_json(p.input, p.spatial_rank)},
      {"kernel", dims_json(p.kernel, p.spatial_rank)},
      {"stride", dims_json(p.stride, p.spatial_rank)},
      {"dilation", dims_json(p.dilation, p.spatial_rank)},
      {"padding_before", dims_json(p.pad_before, p.spatial_rank)},
      {"padding_after", dims_json(p.pad_after, p.spatial_rank)},
      {"output_padding", dims_json(p.output_padding, p.spatial_rank)},
      {"bias", p.bias},
  };
}

ojson floor_json(const Floor& floor) {
  return {
      {"memory_s", number_or_null(floor.memory_s)},
      {"compute_s", number_or_null(floor.compute_s)},
      {"floor_s", number_or_null(floor.floor_s)},
      {"binds", floor.binds},
      {"compute_units", to_string(floor.compute_units)},
      {"published_input_only_s", number_or_null(floor.published_input_only_s)},
  };
}

ojson record_json(const PublishedRecord& record) {
  return {
      {"hardware", record.hardware},
      {"implementation", record.implementation},
      {"ms", record.ms},
      {"stdev_ms", record.stdev_ms >= 0 ? ojson(record.stdev_ms) : ojson(nullptr)},
      {"source", record.source},
      {"math", record.math ? ojson(std::string(to_string(*record.math))) : ojson(nullptr)},
  };
}

ojson workload_json(const WorkloadSummary& summary) {
  const Workload& w = summary.workload;
  const ProblemMetrics& m = summary.metrics;
  ojson records = ojson::array();
  for (const PublishedRecord& record : w.records) records.push_back(record_json(record));
  ojson document = {
      {"name", w.name},
      {"description", w.description},
      {"source_file", w.source_file},
      {"source_line", w.source_line},
      {"problem", problem_json(w.problem)},
      {"input_shape", input_shape(w.problem)},
      {"weight_shape", weight_shape(w.problem)},
      {"output_shape", output_shape(w.problem)},
      {"flops", m.flops},
      {"bytes",
       {{"input", m.input_bytes},
        {"weight", m.weight_bytes},
        {"bias", m.bias_bytes},
        {"output", m.output_bytes},
        {"total", m.bytes()}}},
      {"arithmetic_intensity", number_or_null(m.arithmetic_intensity())},
      {"floor", {{"fp32", floor_json(summary.floor_fp32)}, {"tf32", floor_json(summary.floor_tf32)}}},
      {"batch_overridden", summary.batch_overridden},
      {"spec_batch", summary.spec_batch},
      {"records", records},
  };
  // Only when the spec gives one other than 1, so documents of other runs stay as they were.
  if (w.count != 1) document["count"] = w.count;
  // Only for a point of a sweep, so documents of unswept runs stay as they were.
  if (!w.sweep_origin.empty()) {
    ojson axes = ojson::array();
    for (const SweepValue& v : w.sweep) axes.push_back({{"key", v.key}, {"value", v.value}});
    document["sweep"] = {{"origin", w.sweep_origin}, {"axes", axes}};
  }
  return document;
}

ojson comparison_json(const Comparison& c) {
  ojson first = nullptr;
  if (c.first_mismatch >= 0)
    first = {{"index", c.first_mismatch},
             {"got", number_or_null(c.first_mismatch_got)},
             {"expected", number_or_null(c.first_mismatch_expected)},
             {"allowed", number_or_null(c.first_mismatch_allowed)}};
  return {
      {"checked", c.checked},
      {"mismatches", c.mismatches},
      {"max_abs_error", number_or_null(c.max_abs_error)},
      {"max_rel_error", number_or_null(c.max_rel_error)},
      {"max_error_ratio", number_or_null(c.max_error_ratio)},
      {"first_mismatch", first},
      {"passed", c.passed()},
  };
}

ojson verification_json(const Verification& v) {
  ojson out = {
      {"against", v.against},
      {"full", v.full},
      {"inputs_unchanged", v.inputs_unchanged},
  };
  if (v.tolerance) out["tolerance"] = {{"atol", v.tolerance->atol}, {"rtol", v.tolerance->rtol}};
  if (v.bound)
    out["error_bound"] = {{"lambda", v.bound->lambda},
                          {"reduction_length", v.bound->reduction_length},
                          {"u_accumulate", v.bound->u_accumulate},
                          {"u_operand", v.bound->u_operand},
                          {"u_output", v.bound->u_output},
                          {"c_uniform", v.bound->c_uniform()},
                          {"formula", v.bound->describe()}};
  out.update(comparison_json(v.comparison));
  if (v.kernelbench_rule)
    out["kernelbench_rule"] = {{"atol", v.kernelbench_rule->tolerance.atol},
                               {"rtol", v.kernelbench_rule->tolerance.rtol},
                               {"mismatches", v.kernelbench_rule->comparison.mismatches},
                               {"passed", v.kernelbench_rule->comparison.passed()}};
  out["fresh_inputs"] = v.fresh_inputs ? comparison_json(*v.fresh_inputs) : ojson(nullptr);
  if (v.fresh_inputs) out["fresh_inputs"]["seed"] = v.fresh_inputs_seed;
  return out;
}

ojson timing_json(const Measurement& m) {
  const Statistics& s = m.stats;
  return {
      {"samples_s", m.samples_s},
      {"stats",
       {{"count", s.count},
        {"mean", s.mean},
        {"median", s.median},
        {"stdev", s.stdev},
        {"min", s.min},
        {"max", s.max},
        {"p10", s.p10},
        {"p90", s.p90}}},
      {"throttled_samples", m.throttled_samples},
      {"budget_exhausted", m.budget_exhausted},
      {"wall_s", m.wall_s},
  };
}

ojson result_json(const Result& r, const RunReport& report) {
  const report::ResultView view = report::view_result(r, report);
  ojson achieved = nullptr;
  if (view.achieved_flops && view.achieved_Bps)
    achieved = {{"tflops", *view.achieved_flops / 1e12}, {"GBps", *view.achieved_Bps / 1e9}};
  // A JSON object cannot hold a key twice; a repeated property keeps its first position and last value.
  ojson properties = ojson::object();
  for (const auto& [key, value] : r.properties) properties[key] = value;
  return {
      {"workload", r.workload},
      {"backend", r.backend},
      {"variant", r.variant},
      {"implementation", r.implementation},
      {"math_requested", to_string(r.math_requested)},
      {"math_used", to_string(r.math_used)},
      {"dtype", to_string(r.dtype)},
      {"layout", to_string(r.layout)},
      {"pass", to_string(r.pass)},
      {"accumulation", r.accumulation},
      {"ran_on", to_string(r.ran_on)},
      {"status", to_string(r.status)},
      {"reason", r.reason},
      {"verification", r.verification ? verification_json(*r.verification) : ojson(nullptr)},
      {"timing", view.timing ? timing_json(*view.timing) : ojson(nullptr)},
      {"achieved", achieved},
      {"headroom", view.headroom ? ojson(*view.headroom) : ojson(nullptr)},
      {"properties", properties},
      {"warnings", r.warnings},
  };
}

ojson settings_json(const RunSettings& s) {
  ojson modes = ojson::array();
  for (MathMode math : s.math_modes) modes.push_back(to_string(math));
  return {
      {"backends", s.backends},
      {"math_modes", modes},
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

ojson peaks_json(const DevicePeaks& p) {
  return {
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

}  // namespace

nlohmann::ordered_json report_to_json(const RunReport& report) {
  ojson workloads = ojson::array();
  for (const WorkloadSummary& summary : report.workloads) workloads.push_back(workload_json(summary));
  ojson results = ojson::array();
  for (const Result& result : report.results) results.push_back(result_json(result, report));
  return {
      {"schema", kResultsSchemaId},
      {"kbench_version", report.kbench_version},
      {"build", report.build},
      {"started_at", report.started_at},
      {"host", report.host},
      {"host_memory", {{"peak_rss_bytes", report.peak_rss_bytes}}},
      {"device", report.device},
      {"host_cpu", report.host_cpu},
      {"peaks", peaks_json(report.peaks)},
      {"floors_for_target", report.peaks_from_target},
      {"settings", settings_json(report.settings)},
      {"interrupted", report.interrupted},
      {"notes", report.notes},
      {"workloads", workloads},
      {"results", results},
  };
}

void write_json_report(const RunReport& report, std::ostream& out) {
  // Invalid UTF-8 (a byte string from a driver message, say) is replaced rather than thrown on.
  out << report_to_json(report).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

}  // namespace kbench
