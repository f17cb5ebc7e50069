#include "import/spec_writer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>
#include <vector>

namespace kbench::import {

namespace {

// A double-quoted YAML scalar: safe for any text (colons, '#', leading indicators, non-ASCII).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool uniform(const Dims& dims, int rank) {
  for (int d = 1; d < rank; ++d)
    if (dims[d] != dims[0]) return false;
  return true;
}

// One integer when every spatial dim agrees, else one per dim.
std::string per_dim(const Dims& dims, int rank) {
  if (uniform(dims, rank)) return fmt::format("{}", dims[0]);
  return fmt::format("[{}]", fmt::join(dims.v, dims.v + rank, ", "));
}

bool all_equal_to(const Dims& dims, int rank, std::int64_t value) {
  for (int d = 0; d < rank; ++d)
    if (dims[d] != value) return false;
  return true;
}

// Symmetric padding as a per-dim value; a dim whose before and after differ as a [before, after] pair.
std::string padding_text(const ConvProblem& p) {
  const int rank = p.spatial_rank;
  if (p.pad_before == p.pad_after) return per_dim(p.pad_before, rank);
  std::vector<std::string> entries;
  for (int d = 0; d < rank; ++d)
    entries.push_back(p.pad_before[d] == p.pad_after[d] ? fmt::format("{}", p.pad_before[d])
                                                        : fmt::format("[{}, {}]", p.pad_before[d], p.pad_after[d]));
  return fmt::format("[{}]", fmt::join(entries, ", "));
}

std::string records_text(const std::vector<PublishedRecord>& records) {
  std::string out = "  records:\n";
  for (const PublishedRecord& r : records) {
    out += fmt::format("    - hardware: {}\n      implementation: {}\n      ms: {}\n", quoted(r.hardware),
                       quoted(r.implementation), r.ms);
    if (r.stdev_ms >= 0) out += fmt::format("      stdev_ms: {}\n", r.stdev_ms);
    out += fmt::format("      source: {}\n", quoted(r.source));
  }
  return out;
}

}  // namespace

std::string write_workload_entry(const Workload& w) {
  const ConvProblem& p = w.problem;
  const int rank = p.spatial_rank;
  std::string out = fmt::format("- name: {}\n", w.name);
  if (!w.description.empty()) out += fmt::format("  description: {}\n", quoted(w.description));
  out += fmt::format("  op: {}\n  dtype: {}\n", to_string(p.op), to_string(p.dtype));
  if (p.layout != Layout::nchw) out += fmt::format("  layout: {}\n", to_string(p.layout));
  if (p.pass != Pass::forward) out += fmt::format("  pass: {}\n", to_string(p.pass));
  std::vector<std::int64_t> input{p.batch, p.in_channels};
  input.insert(input.end(), p.input.v, p.input.v + rank);
  out += fmt::format("  input: [{}]\n  out_channels: {}\n  kernel: {}\n", fmt::join(input, ", "), p.out_channels,
                     per_dim(p.kernel, rank));
  if (!all_equal_to(p.stride, rank, 1)) out += fmt::format("  stride: {}\n", per_dim(p.stride, rank));
  if (!all_equal_to(p.pad_before, rank, 0) || !all_equal_to(p.pad_after, rank, 0))
    out += fmt::format("  padding: {}\n", padding_text(p));
  if (!all_equal_to(p.dilation, rank, 1)) out += fmt::format("  dilation: {}\n", per_dim(p.dilation, rank));
  if (p.groups != 1) out += fmt::format("  groups: {}\n", p.groups);
  out += fmt::format("  bias: {}\n", p.bias ? "true" : "false");
  if (p.transposed() && !all_equal_to(p.output_padding, rank, 0))
    out += fmt::format("  output_padding: {}\n", per_dim(p.output_padding, rank));
  if (w.count != 1) out += fmt::format("  count: {}\n", w.count);
  if (!w.records.empty()) out += records_text(w.records);
  return out;
}

std::string write_spec(const std::vector<Workload>& workloads, const std::string& header) {
  std::ostringstream out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) out << (line.empty() ? "#" : "# " + line) << '\n';
  for (std::size_t i = 0; i < workloads.size(); ++i) out << (i ? "\n" : "") << write_workload_entry(workloads[i]);
  return out.str();
}

}  // namespace kbench::import
