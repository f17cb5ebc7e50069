#include "spec/workload_reader.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "spec/layout_names.hpp"
#include "spec/pass_list.hpp"
#include "problem/problem_validation.hpp"
#include "spec/spatial_fields.hpp"
#include "spec/sweep.hpp"
#include "spec/sweep_expansion.hpp"
#include "spec/workload_keys.hpp"

namespace kbench::spec {

namespace {

// Names end up in file names, table rows and --filter patterns: keep them to a safe alphabet.
bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

std::string read_name(const SpecReader& reader, const Located& where) {
  const std::string name = reader.read_text(where);
  constexpr std::size_t max_length = 128;
  if (name.size() > max_length)
    reader.fail(where, fmt::format("name is {} characters long; expected at most {}", name.size(), max_length));
  for (std::size_t i = 0; i < name.size(); ++i)
    if (!is_name_char(name[i]) || (i == 0 && !std::isalnum(static_cast<unsigned char>(name[i]))))
      reader.fail(where, fmt::format("'{}' has '{}' at position {}; expected a letter or digit first, then letters, "
                                     "digits, '.', '_' or '-'",
                                     name, name[i], i + 1));
  return name;
}

OpKind read_op(const SpecReader& reader, const Located& where) {
  const std::string text = reader.read_text(where);
  if (auto op = parse_op_kind(text)) return *op;
  reader.fail(where, fmt::format("unknown op '{}'{}; expected conv or conv_transpose (the spatial rank comes from "
                                 "the length of input)",
                                 text, did_you_mean_suffix(text, kOpNames, kOpAliases)));
}

DType read_dtype(const SpecReader& reader, const Located& where) {
  const std::string text = reader.read_text(where);
  const auto dtype = parse_dtype(text);
  if (!dtype)
    reader.fail(where, fmt::format("unknown dtype '{}'{}; expected fp32, fp16 or bf16", text,
                                   did_you_mean_suffix(text, kDTypeNames, kDTypeAliases)));
  return *dtype;
}

// After input: a rank-specific name (ncdhw) must match the input's rank.
Layout read_layout(const SpecReader& reader, const Located& where, int rank) {
  const std::string text = reader.read_text(where);
  if (const auto problem = layout_name_problem(text, rank)) reader.fail(where, *problem);
  return *parse_layout(text);
}

double read_milliseconds(const SpecReader& reader, const Located& where, bool zero_allowed) {
  const double value = reader.read_number(where);
  const bool ok = std::isfinite(value) && (zero_allowed ? value >= 0 : value > 0);
  if (!ok)
    reader.fail(where, fmt::format("got {}; expected a finite number of milliseconds {}", where.node.Scalar(),
                                   zero_allowed ? ">= 0" : "> 0"));
  return value;
}

PublishedRecord read_record(const SpecReader& reader, const Located& where) {
  const MappingFields fields(reader, where, {kRecordKeys, kRecordKeyAliases},
                             "a record mapping {hardware, implementation, ms, stdev_ms, source, math}");
  PublishedRecord record;
  record.hardware =
      reader.read_text(fields.require("hardware", "the GPU it was timed on, e.g. hardware: NVIDIA H100 80GB HBM3"));
  record.implementation =
      reader.read_text(fields.require("implementation", "what was timed, e.g. implementation: PyTorch eager"));
  record.ms =
      read_milliseconds(reader, fields.require("ms", "the published time in milliseconds, e.g. ms: 1.25"), false);
  if (auto stdev = fields.find("stdev_ms")) record.stdev_ms = read_milliseconds(reader, *stdev, true);
  record.source =
      reader.read_text(fields.require("source", "where the number was published, e.g. source: a paper or URL"));
  if (auto math = fields.find("math")) {
    const std::string text = reader.read_text(*math);
    record.math = parse_math_mode(text);
    if (!record.math)
      reader.fail(*math, fmt::format("got '{}'; expected fp32 or tf32 (the math the record ran under: tf32 where "
                                     "TF32 was allowed, as PyTorch allows it for cuDNN convolutions by default)",
                                     text));
  }
  return record;
}

std::vector<PublishedRecord> read_records(const SpecReader& reader, const Located& where) {
  std::vector<PublishedRecord> records;
  for (const Located& entry : reader.read_sequence(where, "a list of record mappings"))
    records.push_back(read_record(reader, entry));
  return records;
}

// Where each problem field was written, so a rule broken by the whole problem points at one key.
struct ProblemSites {
  FieldSite input, out_channels, kernel, stride, padding, dilation, groups, output_padding;
  std::optional<Located> batch;  // a sweep's batch value, which replaces input[0]

  Located locate(const ProblemIssue& issue) const {
    switch (issue.field) {
      case ProblemField::batch: return batch ? *batch : input.locate_entry(0);
      case ProblemField::in_channels: return input.locate_entry(1);
      case ProblemField::spatial_rank: return input.locate(-1);
      case ProblemField::input: return input.locate(issue.spatial_dim);
      case ProblemField::out_channels: return out_channels.locate(issue.spatial_dim);
      case ProblemField::kernel: return kernel.locate(issue.spatial_dim);
      case ProblemField::stride: return stride.locate(issue.spatial_dim);
      case ProblemField::padding: return padding.locate(issue.spatial_dim);
      case ProblemField::dilation: return dilation.locate(issue.spatial_dim);
      case ProblemField::groups: return groups.locate(issue.spatial_dim);
      case ProblemField::output_padding: return output_padding.locate(issue.spatial_dim);
    }
    return input.locate(-1);
  }
};

FieldSite whole_value_site(const Located& where) { return FieldSite{where.path, where.position, {}, 0}; }

// A per-dimension key: read it when present, else keep `defaults` and blame the mapping for any rule it breaks.
Dims read_optional_per_dim(const SpecReader& reader, const MappingFields& fields, std::string_view key, int rank,
                           std::int64_t min, Dims defaults, FieldSite& site) {
  if (auto where = fields.find(key)) return read_per_dim(reader, *where, rank, min, defaults, site);
  site = default_site(fields, key);
  return defaults;
}

// The spatial rank comes from `input`; every per-dim list must agree with it. When two or more lists agree
// with each other but not with input, input is the odd one out and is blamed; otherwise the list that
// disagrees is (reported when it is read).
void check_rank_consensus(const SpecReader& reader, const MappingFields& fields, const Located& input, int rank) {
  std::vector<std::string_view> listed;
  std::size_t common_length = 0;
  for (std::string_view key : {"kernel", "stride", "dilation", "padding", "output_padding"}) {
    const auto where = fields.find(key);
    if (!where || !where->node.IsSequence()) continue;
    if (!listed.empty() && where->node.size() != common_length) return;  // lists disagree among themselves
    common_length = where->node.size();
    listed.push_back(key);
  }
  const bool plausible_rank = common_length >= 1 && common_length <= static_cast<std::size_t>(kMaxSpatialRank);
  if (listed.size() < 2 || !plausible_rank || common_length == static_cast<std::size_t>(rank)) return;
  std::string names;
  for (std::size_t i = 0; i < listed.size(); ++i)
    names += fmt::format("{}{}", i == 0 ? "" : (i + 1 == listed.size() ? " and " : ", "), listed[i]);
  reader.fail(input, fmt::format("got {} spatial size{} but {} all have {} entries; expected [N, C] and {} spatial "
                                 "sizes ({} entries) to match them, or those lists with {} entr{}",
                                 rank, rank == 1 ? "" : "s", names, common_length, common_length, common_length + 2,
                                 rank, rank == 1 ? "y" : "ies"));
}

ConvProblem read_problem(const SpecReader& reader, const MappingFields& fields) {
  ConvProblem problem;
  ProblemSites sites;
  problem.op = read_op(reader, fields.require("op", "op: conv or op: conv_transpose"));
  if (auto dtype = fields.find("dtype")) problem.dtype = read_dtype(reader, *dtype);

  const Located input = fields.require("input", "the input shape [N, C, spatial...], e.g. input: [8, 3, 32, 32]");
  const InputShape shape = read_input_shape(reader, input, sites.input);
  check_rank_consensus(reader, fields, input, shape.spatial_rank);
  problem.spatial_rank = shape.spatial_rank;
  problem.batch = shape.batch;
  if (auto batch = fields.find("batch")) {  // only a sweep point has it (workload keys do not include it)
    sites.batch = *batch;
    problem.batch = reader.read_integer(*batch, 1, kMaxProblemDimension);
  }
  problem.in_channels = shape.channels;
  problem.input = shape.spatial;
  const int rank = shape.spatial_rank;
  if (auto layout = fields.find("layout")) problem.layout = read_layout(reader, *layout, rank);

  const Located out_channels = fields.require("out_channels", "the number of output channels, e.g. out_channels: 64");
  sites.out_channels = whole_value_site(out_channels);
  problem.out_channels = reader.read_integer(out_channels, 1, kMaxProblemDimension);

  problem.kernel = read_per_dim(
      reader, fields.require("kernel", "the kernel size, one integer or one per spatial dim, e.g. kernel: 3"), rank, 1,
      Dims{}, sites.kernel);
  problem.stride = read_optional_per_dim(reader, fields, "stride", rank, 1, Dims{}, sites.stride);
  problem.dilation = read_optional_per_dim(reader, fields, "dilation", rank, 1, Dims{}, sites.dilation);

  if (auto padding = fields.find("padding")) {
    const Padding pads = read_padding(reader, *padding, rank, sites.padding);
    problem.pad_before = pads.before;
    problem.pad_after = pads.after;
  } else {
    sites.padding = default_site(fields, "padding");
  }

  if (auto groups = fields.find("groups")) {
    sites.groups = whole_value_site(*groups);
    problem.groups = reader.read_integer(*groups, 1, kMaxProblemDimension);
  } else {
    sites.groups = default_site(fields, "groups");
  }

  if (auto bias = fields.find("bias")) problem.bias = reader.read_bool(*bias);

  if (auto output_padding = fields.find("output_padding")) {
    // Refused even when 0: a conv given output_padding is most likely meant to be a conv_transpose.
    if (!problem.transposed())
      reader.fail(*output_padding,
                  "output_padding applies only to op: conv_transpose; expected no output_padding "
                  "for op: conv (or op: conv_transpose)");
    problem.output_padding = read_per_dim(reader, *output_padding, rank, 0, Dims{{0, 0, 0}}, sites.output_padding);
  } else {
    sites.output_padding = default_site(fields, "output_padding");
  }

  if (const auto issue = find_problem_issue(problem)) reader.fail(sites.locate(*issue), issue->message);
  return problem;
}

// For messages about a combination: the values as written ("kernel=[3, 5]").
std::string node_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  if (!node.IsSequence()) return describe_node(node);
  std::string text = "[";
  for (std::size_t i = 0; i < node.size(); ++i) text += (i ? ", " : "") + node_text(node[i]);
  return text + "]";
}

ReadWorkload read_fields(const SpecReader& reader, const Located& mapping, MappingFields& fields);

// A sweep point: the workload mapping read with the point's values in place of its keys, named
// "<name>.<key>-<value>..." from the values as read. An error in it says which point it was.
ReadWorkload read_sweep_point(const SpecReader& reader, const SweepPointNode& point) {
  MappingFields fields(reader, point.workload, {kWorkloadKeys, kWorkloadKeyAliases}, "a workload mapping");
  for (const auto& [key, value] : point.values) fields.override_field(key, value);
  ReadWorkload read;
  try {
    read = read_fields(reader, point.workload, fields);
  } catch (const InputError& error) {
    std::string values;
    for (const auto& [key, value] : point.values)
      values += fmt::format("{}{}={}", values.empty() ? "" : ", ", key, node_text(value.node));
    throw InputError(fmt::format("{} (in the sweep point {})", error.what(), values));
  }
  Workload& workload = read.workload;
  workload.sweep_origin = workload.name;
  for (const auto& [key, value] : point.values)
    workload.sweep.push_back({key, sweep_value_text(workload.problem, key)});
  workload.name = sweep_point_name(workload.sweep_origin, workload.sweep);
  return read;
}

ReadWorkload read_fields(const SpecReader& reader, const Located& mapping, MappingFields& fields) {
  ReadWorkload read;
  Workload& workload = read.workload;
  const Located name = fields.require("name", "a unique workload name, e.g. name: my-conv2d");
  workload.name = read_name(reader, name);
  read.name_position = name.position;
  if (auto description = fields.find("description")) workload.description = reader.read_text(*description);
  workload.problem = read_problem(reader, fields);
  if (auto pass = fields.find("pass")) {
    read.passes = read_passes(reader, *pass);
    workload.problem.pass = read.passes.front();
  }
  if (auto records = fields.find("records")) workload.records = read_records(reader, *records);
  if (auto count = fields.find("count")) workload.count = reader.read_integer(*count, 1, kMaxProblemDimension);
  workload.source_file = reader.origin();
  workload.source_line = mapping.position.line;
  return read;
}

}  // namespace

ReadWorkload read_workload(const SpecReader& reader, const Located& mapping) {
  if (const auto point = as_sweep_point(mapping.node)) return read_sweep_point(reader, *point);
  MappingFields fields(reader, mapping, {kWorkloadKeys, kWorkloadKeyAliases}, "a workload mapping");
  return read_fields(reader, mapping, fields);
}

}  // namespace kbench::spec
