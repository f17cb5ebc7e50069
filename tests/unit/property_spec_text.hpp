#pragma once
// Random workload specs written as YAML text, for the property tests in test_property_specs.cpp:
// small valid problems within PyTorch's rules (and the ConvProblem each must parse to), written in
// every style the format allows, and single mutations of them that make the spec invalid, each with
// the key the error must name and the line it must point at.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "problem/conv_problem.hpp"

namespace kbench::testing::property {

using Rng = std::mt19937_64;

inline std::int64_t uniform(Rng& rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}
inline bool coin(Rng& rng, double p_true = 0.5) { return std::bernoulli_distribution(p_true)(rng); }
template <class T>
const T& pick(Rng& rng, const std::vector<T>& options) {
  return options[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(options.size()) - 1))];
}

// Multiply-adds of the problem counted the way a naive loop does them (every tap, landed or not), so a
// bound on it bounds the test's run time whatever the geometry.
inline std::int64_t naive_macs(const ConvProblem& p) {
  std::int64_t kernel_volume = 1, in_volume = 1, out_volume = 1;
  for (int d = 0; d < p.spatial_rank; ++d) {
    kernel_volume *= p.kernel[d];
    in_volume *= p.input[d];
    out_volume *= p.output_extent(d);
  }
  const std::int64_t per_group_in = p.in_channels / p.groups, per_group_out = p.out_channels / p.groups;
  return p.batch * p.groups * per_group_in * per_group_out * kernel_volume * std::max(in_volume, out_volume);
}

// A random valid problem of at most `max_flops` (2 per multiply-add), rank 1-3, conv or conv_transpose,
// groups dividing both channel counts, stride/padding/dilation/output_padding within PyTorch's rules.
inline ConvProblem random_valid_problem(Rng& rng, std::int64_t max_flops) {
  for (;;) {
    ConvProblem p;
    p.op = coin(rng) ? OpKind::conv : OpKind::conv_transpose;
    p.spatial_rank = static_cast<int>(uniform(rng, 1, 3));
    p.groups = pick(rng, std::vector<std::int64_t>{1, 1, 1, 2, 3, 4});
    p.in_channels = p.groups * uniform(rng, 1, 3);
    p.out_channels = p.groups * uniform(rng, 1, 3);
    p.batch = uniform(rng, 1, 2);
    p.bias = coin(rng);
    for (int d = 0; d < p.spatial_rank; ++d) {
      p.kernel[d] = uniform(rng, 1, 3);
      p.stride[d] = uniform(rng, 1, 3);
      p.dilation[d] = uniform(rng, 1, 2);
      p.pad_before[d] = uniform(rng, 0, 2);
      p.pad_after[d] = coin(rng, 0.7) ? p.pad_before[d] : uniform(rng, 0, 2);
      p.input[d] = uniform(rng, 1, p.spatial_rank == 3 ? 4 : 7);  // rank 3 multiplies sizes up fast
      if (!p.transposed()) {
        // PyTorch: the dilated kernel must fit the padded input.
        const std::int64_t span = p.dilation[d] * (p.kernel[d] - 1) + 1;
        p.input[d] = std::max(p.input[d], span - p.pad_before[d] - p.pad_after[d]);
        p.input[d] = std::max<std::int64_t>(p.input[d], 1);
      } else {
        // PyTorch: output_padding smaller than stride or dilation; the cropped output at least 1 wide.
        p.output_padding[d] = uniform(rng, 0, std::max(p.stride[d], p.dilation[d]) - 1);
        if (p.output_extent(d) < 1) p.pad_before[d] = p.pad_after[d] = 0;
      }
    }
    if (2 * naive_macs(p) <= max_flops) return p;
  }
}

// One "key: value" line of a workload mapping; values are YAML text, inline (flow) style.
struct SpecLine {
  std::string key;
  std::string value;
};
using SpecLines = std::vector<SpecLine>;

inline std::string join_list(const std::vector<std::string>& items, Rng& rng) {
  const std::string separator = coin(rng, 0.8) ? ", " : ",";
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? separator : "") + items[i];
  return text + "]";
}

inline std::vector<std::string> dims_items(const Dims& dims, int rank) {
  std::vector<std::string> items;
  for (int d = 0; d < rank; ++d) items.push_back(std::to_string(dims[d]));
  return items;
}

// A per-dimension value: a single integer when every dim agrees (and the coin says so), else a list.
inline std::string dims_text(const Dims& dims, int rank, Rng& rng) {
  bool uniform_dims = true;
  for (int d = 1; d < rank; ++d) uniform_dims = uniform_dims && dims[d] == dims[0];
  if (uniform_dims && coin(rng)) return std::to_string(dims[0]);
  return join_list(dims_items(dims, rank), rng);
}

// Padding: one integer, one per dim, or [before, after] pairs where the two sides differ (or the coin says).
inline std::string padding_text(const ConvProblem& p, Rng& rng) {
  bool symmetric = true, uniform_dims = true;
  for (int d = 0; d < p.spatial_rank; ++d) {
    symmetric = symmetric && p.pad_before[d] == p.pad_after[d];
    uniform_dims = uniform_dims && p.pad_before[d] == p.pad_before[0];
  }
  if (symmetric && uniform_dims && coin(rng)) return std::to_string(p.pad_before[0]);
  std::vector<std::string> items;
  for (int d = 0; d < p.spatial_rank; ++d) {
    const std::string before = std::to_string(p.pad_before[d]), after = std::to_string(p.pad_after[d]);
    items.push_back(p.pad_before[d] == p.pad_after[d] && coin(rng) ? before : "[" + before + ", " + after + "]");
  }
  return join_list(items, rng);
}

inline bool all_equal_to(const Dims& dims, int rank, std::int64_t value) {
  for (int d = 0; d < rank; ++d)
    if (dims[d] != value) return false;
  return true;
}

// The spec lines for `p`, in a random order, leaving out keys at their default value when the coin says so.
inline SpecLines spec_lines(const ConvProblem& p, const std::string& name, Rng& rng) {
  const int rank = p.spatial_rank;
  SpecLines lines;
  lines.push_back({"name", name});
  lines.push_back({"op", p.transposed() ? "conv_transpose" : "conv"});
  std::vector<std::string> input{std::to_string(p.batch), std::to_string(p.in_channels)};
  for (const std::string& item : dims_items(p.input, rank)) input.push_back(item);
  lines.push_back({"input", join_list(input, rng)});
  lines.push_back({"out_channels", std::to_string(p.out_channels)});
  lines.push_back({"kernel", dims_text(p.kernel, rank, rng)});
  if (!all_equal_to(p.stride, rank, 1) || coin(rng)) lines.push_back({"stride", dims_text(p.stride, rank, rng)});
  if (!all_equal_to(p.dilation, rank, 1) || coin(rng)) lines.push_back({"dilation", dims_text(p.dilation, rank, rng)});
  if (!all_equal_to(p.pad_before, rank, 0) || !all_equal_to(p.pad_after, rank, 0) || coin(rng))
    lines.push_back({"padding", padding_text(p, rng)});
  if (p.groups != 1 || coin(rng)) lines.push_back({"groups", std::to_string(p.groups)});
  if (p.bias || coin(rng)) lines.push_back({"bias", p.bias ? "true" : "false"});
  if (p.transposed() && (!all_equal_to(p.output_padding, rank, 0) || coin(rng)))
    lines.push_back({"output_padding", dims_text(p.output_padding, rank, rng)});
  if (coin(rng, 0.2)) lines.push_back({"dtype", "fp32"});
  if (coin(rng, 0.2)) lines.push_back({"description", "\"random: " + name + "\""});
  if (coin(rng, 0.1))
    lines.push_back({"records", "[{hardware: NVIDIA H100, implementation: PyTorch eager, ms: 0.5, source: test}]"});
  std::shuffle(lines.begin(), lines.end(), rng);
  return lines;
}

// Block style, one key per line; `first_prefix` starts the first line ("- " for a list entry) and
// `indent` every other line.
inline std::string block_mapping(const SpecLines& lines, const std::string& first_prefix = "",
                                 const std::string& indent = "") {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i)
    text += (i == 0 ? first_prefix : indent) + lines[i].key + ": " + lines[i].value + "\n";
  return text;
}

inline std::string flow_mapping(const SpecLines& lines) {
  std::string text = "{";
  for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? ", " : "") + lines[i].key + ": " + lines[i].value;
  return text + "}";
}

// Several workloads in one text, in one of the layouts a spec file may use: one mapping per `---`
// document, a block list, or a list of flow mappings.
inline std::string spec_document(const std::vector<SpecLines>& workloads, Rng& rng) {
  std::string text = coin(rng, 0.3) ? "# generated by test_property_specs\n" : "";
  switch (uniform(rng, 0, 2)) {
    case 0:
      for (const SpecLines& lines : workloads) text += "---\n" + block_mapping(lines);
      break;
    case 1:
      for (const SpecLines& lines : workloads) text += block_mapping(lines, "- ", "  ");
      break;
    default:
      for (const SpecLines& lines : workloads) text += "- " + flow_mapping(lines) + "\n";
      break;
  }
  return text;
}

}  // namespace kbench::testing::property
