// workloads[] of kbench.results/1 (docs/json-schema.md#workloads), and the enums that name things in it.
#include <fmt/format.h>

#include "report/json_value.hpp"
#include "report/results_json.hpp"
#include "problem/problem_validation.hpp"

namespace kbench {

using namespace json_value;

void to_json(ojson& j, OpKind op) { j = to_string(op); }
void from_json(const ojson& j, OpKind& op) { op = named(j, std::array{OpKind::conv, OpKind::conv_transpose}, "op"); }
void to_json(ojson& j, DType dtype) { j = to_string(dtype); }
void from_json(const ojson& j, DType& dtype) {
  dtype = named(j, std::array{DType::fp32, DType::fp16, DType::bf16}, "dtype");
}
void to_json(ojson& j, Layout layout) { j = to_string(layout); }
void from_json(const ojson& j, Layout& layout) { layout = named(j, std::array{Layout::nchw, Layout::nhwc}, "layout"); }
void to_json(ojson& j, Pass pass) { j = to_string(pass); }
void from_json(const ojson& j, Pass& pass) {
  pass = named(j, std::array{Pass::forward, Pass::backward_data, Pass::backward_weights}, "pass");
}
void to_json(ojson& j, MathMode math) { j = to_string(math); }
void from_json(const ojson& j, MathMode& math) {
  math = named(j, std::array{MathMode::fp32, MathMode::tf32}, "math mode");
}
void to_json(ojson& j, ComputeUnits units) { j = to_string(units); }
void from_json(const ojson& j, ComputeUnits& units) {
  units = named(j,
                std::array{ComputeUnits::ffma, ComputeUnits::split_tf32, ComputeUnits::tf32, ComputeUnits::fp16_tensor,
                           ComputeUnits::bf16_tensor},
                "compute units");
}

namespace {

ojson dims_json(const Dims& dims, int rank) {
  ojson array = ojson::array();
  for (int d = 0; d < rank; ++d) array.push_back(dims[d]);
  return array;
}

void read_dims(const ojson& problem, std::string_view key, int rank, Dims& dims) {
  const ojson& array = member(problem, key);
  const auto values = as<std::vector<std::int64_t>>(array);
  if (values.size() != static_cast<std::size_t>(rank))
    refuse(array, fmt::format("expected {} values (one per spatial dimension), got {}", rank, values.size()));
  for (int d = 0; d < rank; ++d) dims[d] = values[static_cast<std::size_t>(d)];
}

}  // namespace

void to_json(ojson& j, const ConvProblem& p) {
  j = {
      {"op", p.op},
      {"dtype", p.dtype},
      {"layout", p.layout},
      {"pass", p.pass},
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

void from_json(const ojson& j, ConvProblem& p) {
  read(j, "op", p.op);
  read(j, "dtype", p.dtype);
  read_optional(j, "layout", p.layout);  // documents before layouts: nchw
  read_optional(j, "pass", p.pass);      // documents before passes: forward
  read(j, "spatial_rank", p.spatial_rank);
  if (p.spatial_rank < 1 || p.spatial_rank > kMaxSpatialRank)
    refuse(member(j, "spatial_rank"), fmt::format("expected 1, 2 or 3, got {}", p.spatial_rank));
  read(j, "batch", p.batch);
  read(j, "in_channels", p.in_channels);
  read(j, "out_channels", p.out_channels);
  read(j, "groups", p.groups);
  if (p.groups < 1) refuse(member(j, "groups"), "expected a positive integer");
  read_dims(j, "input", p.spatial_rank, p.input);
  read_dims(j, "kernel", p.spatial_rank, p.kernel);
  read_dims(j, "stride", p.spatial_rank, p.stride);
  read_dims(j, "dilation", p.spatial_rank, p.dilation);
  read_dims(j, "padding_before", p.spatial_rank, p.pad_before);
  read_dims(j, "padding_after", p.spatial_rank, p.pad_after);
  read_dims(j, "output_padding", p.spatial_rank, p.output_padding);
  read(j, "bias", p.bias);
  // The same rules as a spec's: every report and diff computes shapes, sizes and floors from the
  // problem, and a stride of 0 there divides by zero (found by fuzz_results_json).
  if (const auto issue = find_problem_issue(p)) refuse_key(j, to_string(issue->field), issue->message);
}

void to_json(ojson& j, const Floor& f) {
  j = {
      {"memory_s", null_if_nan(f.memory_s)},
      {"compute_s", null_if_nan(f.compute_s)},
      {"floor_s", null_if_nan(f.floor_s)},
      {"binds", f.binds},
      {"compute_units", f.compute_units},
      {"published_input_only_s", null_if_nan(f.published_input_only_s)},
  };
}

// Without compute_units (documents from before it) the units stay FFMA; the workload's from_json
// makes the tf32 floor's TF32.
void from_json(const ojson& j, Floor& f) {
  f.memory_s = nan_if_null(member(j, "memory_s"));
  f.compute_s = nan_if_null(member(j, "compute_s"));
  f.floor_s = nan_if_null(member(j, "floor_s"));
  read(j, "binds", f.binds);
  read_optional(j, "compute_units", f.compute_units);
  f.published_input_only_s = nan_if_null(member(j, "published_input_only_s"));
}

void to_json(ojson& j, const PublishedRecord& r) {
  j = {
      {"hardware", r.hardware},
      {"implementation", r.implementation},
      {"ms", r.ms},
      {"stdev_ms", r.stdev_ms >= 0 ? ojson(r.stdev_ms) : ojson(nullptr)},
      {"source", r.source},
      {"math", r.math ? ojson(*r.math) : ojson(nullptr)},
  };
}

void from_json(const ojson& j, PublishedRecord& r) {
  read(j, "hardware", r.hardware);
  read(j, "implementation", r.implementation);
  read(j, "ms", r.ms);
  r.stdev_ms = as<std::optional<double>>(member(j, "stdev_ms")).value_or(-1);
  read(j, "source", r.source);
  read_optional(j, "math", r.math);  // absent from documents older than a record's math; null where unstated
}

void to_json(ojson& j, const SweepValue& axis) { j = {{"key", axis.key}, {"value", axis.value}}; }
void from_json(const ojson& j, SweepValue& axis) {
  read(j, "key", axis.key);
  read(j, "value", axis.value);
}

void to_json(ojson& j, const WorkloadSummary& s) {
  const Workload& w = s.workload;
  const ProblemMetrics& m = s.metrics;
  j = {
      {"name", w.name},
      {"description", w.description},
      {"source_file", w.source_file},
      {"source_line", w.source_line},
      {"problem", w.problem},
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
      {"arithmetic_intensity", null_if_nan(m.arithmetic_intensity())},
      {"floor", {{"fp32", s.floor_fp32}, {"tf32", s.floor_tf32}}},
      {"batch_overridden", s.batch_overridden},
      {"spec_batch", s.spec_batch},
      {"records", w.records},
  };
  // Only when the spec gives one other than 1, so documents of other runs stay as they were.
  if (w.count != 1) j["count"] = w.count;
  // Only for a point of a sweep, so documents of unswept runs stay as they were.
  if (!w.sweep_origin.empty()) j["sweep"] = {{"origin", w.sweep_origin}, {"axes", w.sweep}};
}

void from_json(const ojson& j, WorkloadSummary& s) {
  Workload& w = s.workload;
  read(j, "name", w.name);
  read(j, "description", w.description);
  read(j, "source_file", w.source_file);
  read(j, "source_line", w.source_line);
  read(j, "problem", w.problem);
  read(j, "flops", s.metrics.flops);
  const ojson& bytes = member(j, "bytes");
  read(bytes, "input", s.metrics.input_bytes);
  read(bytes, "weight", s.metrics.weight_bytes);
  read(bytes, "bias", s.metrics.bias_bytes);
  read(bytes, "output", s.metrics.output_bytes);
  const ojson& floor = member(j, "floor");
  read(floor, "fp32", s.floor_fp32);
  read(floor, "tf32", s.floor_tf32);
  if (!has(member(floor, "tf32"), "compute_units")) s.floor_tf32.compute_units = ComputeUnits::tf32;
  read(j, "batch_overridden", s.batch_overridden);
  read(j, "spec_batch", s.spec_batch);
  read(j, "records", w.records);
  if (read_optional(j, "count", w.count) && w.count < 1)  // absent when 1, and from documents older than count
    refuse(member(j, "count"), fmt::format("expected an integer >= 1, got {}", w.count));
  if (has(j, "sweep")) {  // absent from unswept workloads and from documents older than sweeps
    const ojson& sweep = member(j, "sweep");
    read(sweep, "origin", w.sweep_origin);
    read(sweep, "axes", w.sweep);
  }
}

}  // namespace kbench
