// Reads a kbench.results/1 document back into a RunReport, checking every key it needs so a
// truncated or hand-edited file fails with the JSON path of the problem rather than a crash.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "report/json_report.hpp"
#include "problem/problem_validation.hpp"

namespace kbench {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& path, std::string_view problem) {
  throw InputError(fmt::format("results JSON {}: {}", path.empty() ? "/" : path, problem));
}

std::string child(const std::string& path, std::string_view key) { return fmt::format("{}/{}", path, key); }
std::string child(const std::string& path, std::size_t index) { return fmt::format("{}/{}", path, index); }

// A JSON value and the path it was found at, so every accessor can say where a problem is.
struct Node {
  const json& value;
  std::string path;

  Node at(std::string_view key) const {
    if (!value.is_object()) fail(path, "expected an object");
    const auto found = value.find(key);
    if (found == value.end()) fail(child(path, key), "missing");
    return {*found, child(path, key)};
  }
  Node at(std::size_t index) const { return {value[index], child(path, index)}; }
  bool has(std::string_view key) const { return value.is_object() && value.find(key) != value.end(); }
  std::size_t size() const {
    if (!value.is_array()) fail(path, fmt::format("expected an array, got {}", value.type_name()));
    return value.size();
  }
  bool is_null() const { return value.is_null(); }

  std::string text() const {
    if (!value.is_string()) fail(path, fmt::format("expected a string, got {}", value.type_name()));
    return value.get<std::string>();
  }
  bool boolean() const {
    if (!value.is_boolean()) fail(path, fmt::format("expected true or false, got {}", value.type_name()));
    return value.get<bool>();
  }
  double number() const {
    if (!value.is_number()) fail(path, fmt::format("expected a number, got {}", value.type_name()));
    return value.get<double>();
  }
  // Written as null where the value was NaN or infinite; read back as NaN.
  double number_or_nan() const { return is_null() ? std::numeric_limits<double>::quiet_NaN() : number(); }
  std::int64_t integer() const {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
      fail(path, "integer out of range");
    if (!value.is_number_integer()) fail(path, fmt::format("expected an integer, got {}", value.dump()));
    return value.get<std::int64_t>();
  }
  int small_integer() const {
    const std::int64_t v = integer();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) fail(path, "integer out of range");
    return static_cast<int>(v);
  }
  std::uint64_t unsigned_integer() const {
    if (!value.is_number_unsigned()) fail(path, fmt::format("expected a non-negative integer, got {}", value.dump()));
    return value.get<std::uint64_t>();
  }
  std::vector<std::string> strings() const {
    std::vector<std::string> out;
    for (std::size_t i = 0, n = size(); i < n; ++i) out.push_back(at(i).text());
    return out;
  }
  MathMode math() const {
    const std::string name = text();
    const auto math = parse_math_mode(name);
    if (!math) fail(path, fmt::format("unknown math mode '{}'; expected fp32 or tf32", name));
    return *math;
  }
};

Layout read_layout(const Node& node) {
  const std::string name = node.text();
  // Only the rank-independent names: the writer never writes a synonym.
  const auto layout = name == "nchw" || name == "nhwc" ? parse_layout(name) : std::nullopt;
  if (!layout) fail(node.path, fmt::format("unknown layout '{}'; expected nchw or nhwc", name));
  return *layout;
}

Pass read_pass(const Node& node) {
  const std::string name = node.text();
  // Only the names the writer writes, not the fprop/dgrad/wgrad synonyms a spec may use.
  const auto pass = name == "forward" || name == "backward_data" || name == "backward_weights" ? parse_pass(name)
                                                                                                : std::nullopt;
  if (!pass) fail(node.path, fmt::format("unknown pass '{}'; expected forward, backward_data or backward_weights", name));
  return *pass;
}

DType read_dtype(const Node& node) {
  const std::string name = node.text();
  const auto dtype = parse_dtype(name);
  if (!dtype) fail(node.path, fmt::format("unknown dtype '{}'; expected fp32, fp16 or bf16", name));
  return *dtype;
}

Dims read_dims(const Node& node, int rank) {
  if (node.size() != static_cast<std::size_t>(rank))
    fail(node.path, fmt::format("expected {} values (one per spatial dimension), got {}", rank, node.size()));
  Dims dims;
  for (int d = 0; d < rank; ++d) dims[d] = node.at(static_cast<std::size_t>(d)).integer();
  return dims;
}

ConvProblem read_problem(const Node& node) {
  ConvProblem p;
  const std::string op = node.at("op").text();
  const auto op_kind = parse_op_kind(op);
  if (!op_kind) fail(child(node.path, "op"), fmt::format("unknown op '{}'; expected conv or conv_transpose", op));
  p.op = *op_kind;
  const std::string dtype = node.at("dtype").text();
  const auto parsed_dtype = parse_dtype(dtype);
  if (!parsed_dtype) fail(child(node.path, "dtype"), fmt::format("unknown dtype '{}'", dtype));
  p.dtype = *parsed_dtype;
  if (node.has("layout")) p.layout = read_layout(node.at("layout"));  // documents before layouts: nchw
  if (node.has("pass")) p.pass = read_pass(node.at("pass"));          // documents before passes: forward
  p.spatial_rank = node.at("spatial_rank").small_integer();
  if (p.spatial_rank < 1 || p.spatial_rank > kMaxSpatialRank)
    fail(child(node.path, "spatial_rank"), fmt::format("expected 1, 2 or 3, got {}", p.spatial_rank));
  p.batch = node.at("batch").integer();
  p.in_channels = node.at("in_channels").integer();
  p.out_channels = node.at("out_channels").integer();
  p.groups = node.at("groups").integer();
  if (p.groups < 1) fail(child(node.path, "groups"), "expected a positive integer");
  p.input = read_dims(node.at("input"), p.spatial_rank);
  p.kernel = read_dims(node.at("kernel"), p.spatial_rank);
  p.stride = read_dims(node.at("stride"), p.spatial_rank);
  p.dilation = read_dims(node.at("dilation"), p.spatial_rank);
  p.pad_before = read_dims(node.at("padding_before"), p.spatial_rank);
  p.pad_after = read_dims(node.at("padding_after"), p.spatial_rank);
  p.output_padding = read_dims(node.at("output_padding"), p.spatial_rank);
  p.bias = node.at("bias").boolean();
  // The same rules as a spec's: every report and diff computes shapes, sizes and floors from the
  // problem, and a stride of 0 there divides by zero (found by fuzz_results_json).
  if (const auto issue = find_problem_issue(p))
    fail(child(node.path, std::string(to_string(issue->field))), issue->message);
  return p;
}

// Documents from before the key existed computed the fp32 floor from FFMA alone.
ComputeUnits read_compute_units(const Node& floor, MathMode math) {
  if (!floor.has("compute_units")) return math == MathMode::tf32 ? ComputeUnits::tf32 : ComputeUnits::ffma;
  const Node node = floor.at("compute_units");
  const auto units = parse_compute_units(node.text());
  if (!units) fail(node.path, "expected \"FFMA\", \"3xTF32\", \"TF32\", \"FP16\" or \"BF16\"");
  return *units;
}

Floor read_floor(const Node& node, MathMode math) {
  Floor f;
  f.memory_s = node.at("memory_s").number_or_nan();
  f.compute_s = node.at("compute_s").number_or_nan();
  f.floor_s = node.at("floor_s").number_or_nan();
  f.binds = node.at("binds").text();
  f.compute_units = read_compute_units(node, math);
  f.published_input_only_s = node.at("published_input_only_s").number_or_nan();
  return f;
}

PublishedRecord read_record(const Node& node) {
  PublishedRecord r;
  r.hardware = node.at("hardware").text();
  r.implementation = node.at("implementation").text();
  r.ms = node.at("ms").number();
  const Node stdev = node.at("stdev_ms");
  r.stdev_ms = stdev.is_null() ? -1 : stdev.number();
  r.source = node.at("source").text();
  // Absent from documents older than a record's math; null where the record does not say.
  if (node.has("math") && !node.at("math").is_null()) r.math = node.at("math").math();
  return r;
}

WorkloadSummary read_workload(const Node& node) {
  WorkloadSummary s;
  Workload& w = s.workload;
  w.name = node.at("name").text();
  w.description = node.at("description").text();
  w.source_file = node.at("source_file").text();
  w.source_line = node.at("source_line").small_integer();
  w.problem = read_problem(node.at("problem"));
  s.metrics.flops = node.at("flops").number();
  const Node bytes = node.at("bytes");
  s.metrics.input_bytes = bytes.at("input").number();
  s.metrics.weight_bytes = bytes.at("weight").number();
  s.metrics.bias_bytes = bytes.at("bias").number();
  s.metrics.output_bytes = bytes.at("output").number();
  const Node floor = node.at("floor");
  s.floor_fp32 = read_floor(floor.at("fp32"), MathMode::fp32);
  s.floor_tf32 = read_floor(floor.at("tf32"), MathMode::tf32);
  s.batch_overridden = node.at("batch_overridden").boolean();
  s.spec_batch = node.at("spec_batch").integer();
  const Node records = node.at("records");
  for (std::size_t i = 0, n = records.size(); i < n; ++i) w.records.push_back(read_record(records.at(i)));
  if (node.has("count")) {  // absent when 1, and from documents older than count
    w.count = node.at("count").integer();
    if (w.count < 1) fail(child(node.path, "count"), fmt::format("expected an integer >= 1, got {}", w.count));
  }
  if (node.has("sweep")) {  // absent from unswept workloads and from documents older than sweeps
    const Node sweep = node.at("sweep");
    w.sweep_origin = sweep.at("origin").text();
    const Node axes = sweep.at("axes");
    for (std::size_t i = 0, n = axes.size(); i < n; ++i)
      w.sweep.push_back({axes.at(i).at("key").text(), axes.at(i).at("value").text()});
  }
  return s;
}

Comparison read_comparison(const Node& node) {
  Comparison c;
  c.checked = node.at("checked").integer();
  c.mismatches = node.at("mismatches").integer();
  c.max_abs_error = node.at("max_abs_error").number_or_nan();
  c.max_rel_error = node.at("max_rel_error").number_or_nan();
  if (node.has("max_error_ratio")) c.max_error_ratio = node.at("max_error_ratio").number_or_nan();
  const Node first = node.at("first_mismatch");
  if (!first.is_null()) {
    c.first_mismatch = first.at("index").integer();
    c.first_mismatch_got = first.at("got").number_or_nan();
    c.first_mismatch_expected = first.at("expected").number_or_nan();
    if (first.has("allowed")) c.first_mismatch_allowed = first.at("allowed").number_or_nan();
  }
  return c;
}

Verification read_verification(const Node& node) {
  Verification v;
  v.against = node.at("against").text();
  v.full = node.at("full").boolean();
  v.inputs_unchanged = node.at("inputs_unchanged").boolean();
  // A fixed tolerance, or (from kbench 0.x with error bounds on) the bound: documents hold one of them.
  if (node.has("tolerance")) {
    const Node tolerance = node.at("tolerance");
    v.tolerance = Tolerance{tolerance.at("atol").number(), tolerance.at("rtol").number()};
  }
  if (node.has("error_bound")) {
    const Node bound = node.at("error_bound");
    v.bound = ErrorBound{.lambda = bound.at("lambda").number(),
                         .reduction_length = bound.at("reduction_length").integer(),
                         .u_accumulate = bound.at("u_accumulate").number(),
                         .u_operand = bound.at("u_operand").number(),
                         .u_output = bound.at("u_output").number()};
  }
  if (!v.tolerance && !v.bound) fail(child(node.path, "tolerance"), "neither a tolerance nor an error bound");
  v.comparison = read_comparison(node);
  if (node.has("kernelbench_rule")) {
    const Node rule = node.at("kernelbench_rule");
    KernelBenchRule r;
    r.tolerance = Tolerance{rule.at("atol").number(), rule.at("rtol").number()};
    r.comparison.checked = v.comparison.checked;
    r.comparison.mismatches = rule.at("mismatches").integer();
    v.kernelbench_rule = r;
  }
  const Node fresh = node.at("fresh_inputs");
  if (!fresh.is_null()) {
    v.fresh_inputs = read_comparison(fresh);
    v.fresh_inputs_seed = fresh.at("seed").unsigned_integer();
  }
  return v;
}

Measurement read_timing(const Node& node) {
  Measurement m;
  const Node samples = node.at("samples_s");
  for (std::size_t i = 0, n = samples.size(); i < n; ++i) m.samples_s.push_back(samples.at(i).number());
  const Node stats = node.at("stats");
  Statistics& s = m.stats;
  s.count = stats.at("count").small_integer();
  s.mean = stats.at("mean").number();
  s.median = stats.at("median").number();
  s.stdev = stats.at("stdev").number();
  s.min = stats.at("min").number();
  s.max = stats.at("max").number();
  s.p10 = stats.at("p10").number();
  s.p90 = stats.at("p90").number();
  m.throttled_samples = node.at("throttled_samples").small_integer();
  m.budget_exhausted = node.at("budget_exhausted").boolean();
  m.wall_s = node.at("wall_s").number();
  return m;
}

ResultStatus read_status(const Node& node) {
  const std::string name = node.text();
  for (ResultStatus status : {ResultStatus::ok, ResultStatus::wrong, ResultStatus::failed, ResultStatus::unsupported,
                              ResultStatus::unavailable, ResultStatus::skipped})
    if (to_string(status) == name) return status;
  fail(node.path, fmt::format("unknown status '{}'", name));
}

ResultDevice read_result_device(const Node& node) {
  const std::string name = node.text();
  for (ResultDevice device : {ResultDevice::gpu, ResultDevice::cpu})
    if (to_string(device) == name) return device;
  fail(node.path, fmt::format("unknown device '{}'; expected gpu or cpu", name));
}

// Documents from before `ran_on`: the reference ran on the CPU, and so did torch where it says so.
ResultDevice guessed_result_device(const Result& r) {
  if (r.backend == "reference" || r.accumulation == "fp64") return ResultDevice::cpu;
  for (const auto& [key, value] : r.properties)
    if (key == "torch.device" && value == "cpu") return ResultDevice::cpu;
  return ResultDevice::gpu;
}

Result read_result(const Node& node) {
  Result r;
  r.workload = node.at("workload").text();
  r.backend = node.at("backend").text();
  r.variant = node.at("variant").text();
  r.implementation = node.at("implementation").text();
  r.math_requested = node.at("math_requested").math();
  r.math_used = node.at("math_used").math();
  // Absent from documents written before half precision: their workload's dtype (set by the caller when
  // it is absent here too), nchw, and an unknown accumulation.
  if (node.has("dtype")) r.dtype = read_dtype(node.at("dtype"));
  if (node.has("layout")) r.layout = read_layout(node.at("layout"));
  if (node.has("pass")) r.pass = read_pass(node.at("pass"));
  if (node.has("accumulation")) r.accumulation = node.at("accumulation").text();
  r.status = read_status(node.at("status"));
  r.reason = node.at("reason").text();
  const Node verification = node.at("verification");
  if (!verification.is_null()) r.verification = read_verification(verification);
  const Node timing = node.at("timing");
  if (!timing.is_null()) {
    // The writer never emits a time for a result that is not ok; a file that does was edited.
    if (r.status != ResultStatus::ok) fail(timing.path, "a result that is not ok cannot carry a timing");
    r.timing = read_timing(timing);
  }
  const Node properties = node.at("properties");
  if (!properties.value.is_object()) fail(properties.path, "expected an object of strings");
  for (const auto& [key, value] : properties.value.items())
    r.properties.emplace_back(key, Node{value, child(properties.path, key)}.text());
  r.warnings = node.at("warnings").strings();
  r.ran_on = node.has("ran_on") ? read_result_device(node.at("ran_on")) : guessed_result_device(r);
  return r;
}

RunSettings read_settings(const Node& node) {
  RunSettings s;
  s.backends = node.at("backends").strings();
  const Node modes = node.at("math_modes");
  for (std::size_t i = 0, n = modes.size(); i < n; ++i) s.math_modes.push_back(modes.at(i).math());
  s.seed = node.at("seed").unsigned_integer();
  s.verify_points = node.at("verify_points").integer();
  s.measure.warmups = node.at("warmups").small_integer();
  s.measure.discarded = node.at("discarded").small_integer();
  s.measure.iterations = node.at("iterations").small_integer();
  s.measure.time_budget_s = node.at("time_budget_s").number();
  s.measure.timing.cold = node.at("cold").boolean();
  s.measure.timing.graph = node.at("graph").boolean();
  return s;
}

DevicePeaks read_peaks(const Node& node) {
  DevicePeaks p;
  p.name = node.at("name").text();
  p.key = node.at("key").text();
  p.source = node.at("source").text();
  p.bandwidth_Bps = node.at("bandwidth_Bps").number();
  p.fp32_flops = node.at("fp32_flops").number();
  p.tf32_flops = node.at("tf32_flops").number();
  // Optional (documents before half precision): 0 reads as "derive it" (DevicePeaks::half_tensor_flops).
  if (node.has("fp16_tensor_flops")) p.fp16_tensor_flops = node.at("fp16_tensor_flops").number();
  if (node.has("bf16_tensor_flops")) p.bf16_tensor_flops = node.at("bf16_tensor_flops").number();
  if (node.has("fp16_flops")) p.fp16_flops = node.at("fp16_flops").number();
  p.sms = node.at("sms").small_integer();
  p.l2_bytes = node.at("l2_bytes").number();
  return p;
}

}  // namespace

RunReport read_json_report(const nlohmann::json& document) {
  const Node root{document, ""};
  const std::string schema = root.at("schema").text();
  if (schema != kResultsSchemaId)
    fail("/schema", fmt::format("'{}' is not a schema this kbench reads; expected '{}'", schema, kResultsSchemaId));
  RunReport report;
  report.kbench_version = root.at("kbench_version").text();
  if (root.has("build")) report.build = root.at("build").text();  // absent in files from before it existed
  report.started_at = root.at("started_at").text();
  report.host = root.at("host").text();
  if (root.has("host_memory"))  // absent in files from before it existed
    report.peak_rss_bytes = root.at("host_memory").at("peak_rss_bytes").integer();
  report.device = root.at("device").text();
  if (root.has("host_cpu")) report.host_cpu = root.at("host_cpu").text();  // absent in older files
  report.peaks = read_peaks(root.at("peaks"));
  report.peaks_from_target = root.at("floors_for_target").boolean();
  report.settings = read_settings(root.at("settings"));
  report.interrupted = root.at("interrupted").boolean();
  report.notes = root.at("notes").strings();
  const Node workloads = root.at("workloads");
  for (std::size_t i = 0, n = workloads.size(); i < n; ++i) report.workloads.push_back(read_workload(workloads.at(i)));
  const Node results = root.at("results");
  for (std::size_t i = 0, n = results.size(); i < n; ++i) {
    Result result = read_result(results.at(i));
    const WorkloadSummary* summary = report.find_workload(result.workload);
    if (summary && !results.at(i).has("dtype")) result.dtype = summary->workload.problem.dtype;
    if (summary && !results.at(i).has("layout")) result.layout = summary->workload.problem.layout;
    if (summary && !results.at(i).has("pass")) result.pass = summary->workload.problem.pass;
    report.results.push_back(std::move(result));
  }
  return report;
}

}  // namespace kbench
