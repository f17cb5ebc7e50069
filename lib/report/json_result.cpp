// results[] of kbench.results/1 (docs/json-schema.md#results): a result, its verification and its timing.
#include <fmt/format.h>

#include "report/json_value.hpp"
#include "report/result_view.hpp"
#include "report/results_json.hpp"

namespace kbench {

using namespace json_value;

void to_json(ojson& j, ResultStatus status) { j = to_string(status); }
void from_json(const ojson& j, ResultStatus& status) {
  status = named(j,
                 std::array{ResultStatus::ok, ResultStatus::wrong, ResultStatus::failed, ResultStatus::unsupported,
                            ResultStatus::unavailable, ResultStatus::skipped},
                 "status");
}
void to_json(ojson& j, ResultDevice device) { j = to_string(device); }
void from_json(const ojson& j, ResultDevice& device) {
  device = named(j, std::array{ResultDevice::gpu, ResultDevice::cpu}, "device");
}

void to_json(ojson& j, const Tolerance& t) { j = {{"atol", t.atol}, {"rtol", t.rtol}}; }
void from_json(const ojson& j, Tolerance& t) {
  read(j, "atol", t.atol);
  read(j, "rtol", t.rtol);
}

namespace {

constexpr std::string_view kBiasAddedAfter = "bias_added_after";

// A comparison's keys, appended to `j`: the verification holds them beside its own.
void append_comparison(ojson& j, const Comparison& c) {
  j["checked"] = c.checked;
  j["mismatches"] = c.mismatches;
  j["max_abs_error"] = null_if_nan(c.max_abs_error);
  j["max_rel_error"] = null_if_nan(c.max_rel_error);
  j["max_error_ratio"] = null_if_nan(c.max_error_ratio);
  j["first_mismatch"] = nullptr;
  if (c.first_mismatch >= 0)
    j["first_mismatch"] = {{"index", c.first_mismatch},
                           {"got", null_if_nan(c.first_mismatch_got)},
                           {"expected", null_if_nan(c.first_mismatch_expected)},
                           {"allowed", null_if_nan(c.first_mismatch_allowed)}};
  j["passed"] = c.passed();
}

}  // namespace

void to_json(ojson& j, const ErrorBound& b) {
  j = {
      {"lambda", b.lambda},
      {"reduction_length", b.reduction_length},
      {"u_accumulate", b.u_accumulate},
      {"u_operand", b.u_operand},
      {"u_output", b.u_output},
  };
  // Only for a backend that rounds twice, so documents of the others stay as they were.
  if (b.output_rounding == OutputRounding::bias_added_after) j["output_rounding"] = kBiasAddedAfter;
  j["c_uniform"] = b.c_uniform();
  j["formula"] = b.describe();
}

void from_json(const ojson& j, ErrorBound& b) {
  read(j, "lambda", b.lambda);
  read(j, "reduction_length", b.reduction_length);
  read(j, "u_accumulate", b.u_accumulate);
  read(j, "u_operand", b.u_operand);
  read(j, "u_output", b.u_output);
  if (has(j, "output_rounding")) {  // absent when once, and from documents older than it
    const ojson& rounding = member(j, "output_rounding");
    if (text(rounding) != kBiasAddedAfter)
      refuse(rounding, fmt::format("unknown output rounding '{}'; expected {}", text(rounding), kBiasAddedAfter));
    b.output_rounding = OutputRounding::bias_added_after;
  }
}

void to_json(ojson& j, const Comparison& c) {
  j = ojson::object();
  append_comparison(j, c);
}

void from_json(const ojson& j, Comparison& c) {
  read(j, "checked", c.checked);
  read(j, "mismatches", c.mismatches);
  c.max_abs_error = nan_if_null(member(j, "max_abs_error"));
  c.max_rel_error = nan_if_null(member(j, "max_rel_error"));
  if (has(j, "max_error_ratio")) c.max_error_ratio = nan_if_null(member(j, "max_error_ratio"));  // optional in older
  const ojson& first = member(j, "first_mismatch");
  if (!first.is_null()) {
    read(first, "index", c.first_mismatch);
    c.first_mismatch_got = nan_if_null(member(first, "got"));
    c.first_mismatch_expected = nan_if_null(member(first, "expected"));
    if (has(first, "allowed")) c.first_mismatch_allowed = nan_if_null(member(first, "allowed"));
  }
}

void to_json(ojson& j, const Verification& v) {
  j = {
      {"against", v.against},
      {"full", v.full},
      {"inputs_unchanged", v.inputs_unchanged},
  };
  if (v.tolerance) j["tolerance"] = *v.tolerance;
  if (v.bound) j["error_bound"] = *v.bound;
  append_comparison(j, v.comparison);
  if (v.kernelbench_rule)
    j["kernelbench_rule"] = {{"atol", v.kernelbench_rule->tolerance.atol},
                             {"rtol", v.kernelbench_rule->tolerance.rtol},
                             {"mismatches", v.kernelbench_rule->comparison.mismatches},
                             {"passed", v.kernelbench_rule->comparison.passed()}};
  j["fresh_inputs"] = nullptr;
  if (v.fresh_inputs) {
    j["fresh_inputs"] = *v.fresh_inputs;
    j["fresh_inputs"]["seed"] = v.fresh_inputs_seed;
  }
}

void from_json(const ojson& j, Verification& v) {
  read(j, "against", v.against);
  read(j, "full", v.full);
  read(j, "inputs_unchanged", v.inputs_unchanged);
  // A fixed tolerance, or (from kbench 0.x with error bounds on) the bound: documents hold one of them.
  read_optional(j, "tolerance", v.tolerance);
  read_optional(j, "error_bound", v.bound);
  if (!v.tolerance && !v.bound) refuse_key(j, "tolerance", "neither a tolerance nor an error bound");
  from_json(j, v.comparison);
  if (has(j, "kernelbench_rule")) {
    const ojson& rule = member(j, "kernelbench_rule");
    KernelBenchRule r;
    from_json(rule, r.tolerance);
    r.comparison.checked = v.comparison.checked;
    read(rule, "mismatches", r.comparison.mismatches);
    v.kernelbench_rule = r;
  }
  const ojson& fresh = member(j, "fresh_inputs");
  if (!fresh.is_null()) {
    v.fresh_inputs = as<Comparison>(fresh);
    read(fresh, "seed", v.fresh_inputs_seed);
  }
}

void to_json(ojson& j, const Statistics& s) {
  j = {{"count", s.count}, {"mean", s.mean}, {"median", s.median}, {"stdev", s.stdev},
       {"min", s.min},     {"max", s.max},   {"p10", s.p10},       {"p90", s.p90}};
}

void from_json(const ojson& j, Statistics& s) {
  read(j, "count", s.count);
  read(j, "mean", s.mean);
  read(j, "median", s.median);
  read(j, "stdev", s.stdev);
  read(j, "min", s.min);
  read(j, "max", s.max);
  read(j, "p10", s.p10);
  read(j, "p90", s.p90);
}

void to_json(ojson& j, const Measurement& m) {
  j = {
      {"samples_s", m.samples_s},
      {"stats", m.stats},
      {"throttled_samples", m.throttled_samples},
      {"budget_exhausted", m.budget_exhausted},
      {"wall_s", m.wall_s},
  };
}

void from_json(const ojson& j, Measurement& m) {
  read(j, "samples_s", m.samples_s);
  read(j, "stats", m.stats);
  read(j, "throttled_samples", m.throttled_samples);
  read(j, "budget_exhausted", m.budget_exhausted);
  read(j, "wall_s", m.wall_s);
}

void to_json(ojson& j, const Result& r) {
  // A JSON object cannot hold a key twice; a repeated property keeps its first position and last value.
  ojson properties = ojson::object();
  for (const auto& [key, value] : r.properties) properties[key] = value;
  const Measurement* timing = report::shown_timing(r);
  j = {
      {"workload", r.workload},
      {"backend", r.backend},
      {"variant", r.variant},
      {"implementation", r.implementation},
      {"math_requested", r.math_requested},
      {"math_used", r.math_used},
      {"dtype", r.dtype},
      {"layout", r.layout},
      {"pass", r.pass},
      {"accumulation", r.accumulation},
      {"ran_on", r.ran_on},
      {"status", r.status},
      {"reason", r.reason},
      {"verification", r.verification ? ojson(*r.verification) : ojson(nullptr)},
      {"timing", timing ? ojson(*timing) : ojson(nullptr)},
      {"achieved", nullptr},  // derived from the workload: the report's to_json fills them in
      {"headroom", nullptr},
      {"properties", properties},
      {"warnings", r.warnings},
  };
}

namespace {

// Documents from before `ran_on`: the reference ran on the CPU, and so did torch where it says so.
ResultDevice guessed_result_device(const Result& r) {
  if (r.backend == "reference" || r.accumulation == "fp64") return ResultDevice::cpu;
  for (const auto& [key, value] : r.properties)
    if (key == "torch.device" && value == "cpu") return ResultDevice::cpu;
  return ResultDevice::gpu;
}

}  // namespace

// dtype, layout and pass absent (documents from before half precision) are the workload's: the
// report's from_json sets them, since a result alone cannot know them.
void from_json(const ojson& j, Result& r) {
  read(j, "workload", r.workload);
  read(j, "backend", r.backend);
  read(j, "variant", r.variant);
  read(j, "implementation", r.implementation);
  read(j, "math_requested", r.math_requested);
  read(j, "math_used", r.math_used);
  read_optional(j, "dtype", r.dtype);
  read_optional(j, "layout", r.layout);
  read_optional(j, "pass", r.pass);
  read_optional(j, "accumulation", r.accumulation);  // "" from older documents: unknown
  read(j, "status", r.status);
  read(j, "reason", r.reason);
  read(j, "verification", r.verification);
  const ojson& timing = member(j, "timing");
  // The writer never emits a time for a result that is not ok; a file that does was edited.
  if (!timing.is_null() && r.status != ResultStatus::ok)
    refuse(timing, "a result that is not ok cannot carry a timing");
  r.timing = as<std::optional<Measurement>>(timing);
  const ojson& properties = member(j, "properties");
  if (!properties.is_object()) refuse(properties, "expected an object of strings");
  for (const auto& [key, value] : properties.items()) r.properties.emplace_back(key, text(value));
  read(j, "warnings", r.warnings);
  if (!read_optional(j, "ran_on", r.ran_on)) r.ran_on = guessed_result_device(r);
}

}  // namespace kbench
