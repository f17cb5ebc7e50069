#include "spec/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "spec/did_you_mean.hpp"
#include "spec/layout_names.hpp"
#include "problem/problem_validation.hpp"

namespace kbench {

namespace {

bool uniform(const Dims& dims, int rank) {
  for (int d = 1; d < rank; ++d)
    if (dims[d] != dims[0]) return false;
  return true;
}

std::string dims_text(const Dims& dims, int rank) {
  if (uniform(dims, rank)) return std::to_string(dims[0]);
  std::vector<std::int64_t> values(dims.v, dims.v + rank);
  return fmt::format("{}", fmt::join(values, "x"));
}

std::string padding_text(const ConvProblem& p) {
  if (p.pad_before == p.pad_after) return dims_text(p.pad_before, p.spatial_rank);
  std::vector<std::string> pairs;
  for (int d = 0; d < p.spatial_rank; ++d) pairs.push_back(fmt::format("{}_{}", p.pad_before[d], p.pad_after[d]));
  return fmt::format("{}", fmt::join(pairs, "x"));
}

// --- --axis values: text -> the problem field ------------------------------------------------------

[[noreturn]] void fail_value(const AxisOverride& axis, std::string_view value, std::string_view problem) {
  throw InputError(fmt::format("--axis {}={}: value '{}': {}", axis.key, fmt::join(axis.values, ","), value, problem));
}

std::optional<std::int64_t> parse_decimal(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || text.front() == '-' || error != std::errc{} || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::int64_t read_count(const AxisOverride& axis, std::string_view value, std::string_view text, std::int64_t min) {
  const auto parsed = parse_decimal(text);
  if (!parsed || *parsed < min || *parsed > kMaxProblemDimension)
    fail_value(axis, value, fmt::format("'{}' is not an integer from {} to {}", text, min, kMaxProblemDimension));
  return *parsed;
}

// "3" (every dim) or "3x5" (one per spatial dim).
Dims read_dims(const AxisOverride& axis, std::string_view value, int rank, std::int64_t min, Dims dims) {
  const auto parts = split(value, 'x');
  if (parts.size() != 1 && parts.size() != static_cast<std::size_t>(rank))
    fail_value(axis, value,
               fmt::format("got {} entries for {} spatial dims; expected one integer, or {} joined by 'x'",
                           parts.size(), rank, rank));
  for (int d = 0; d < rank; ++d) dims[d] = read_count(axis, value, parts[parts.size() == 1 ? 0 : d], min);
  return dims;
}

void set_padding(const AxisOverride& axis, std::string_view value, ConvProblem& p) {
  const auto parts = split(value, 'x');
  if (parts.size() != 1 && parts.size() != static_cast<std::size_t>(p.spatial_rank))
    fail_value(axis, value,
               fmt::format("got {} entries for {} spatial dims; expected one, or {} joined by 'x' (each N or "
                           "BEFORE_AFTER)",
                           parts.size(), p.spatial_rank, p.spatial_rank));
  for (int d = 0; d < p.spatial_rank; ++d) {
    const auto sides = split(parts[parts.size() == 1 ? 0 : d], '_');
    if (sides.size() > 2) fail_value(axis, value, "a padding entry is N or BEFORE_AFTER");
    p.pad_before[d] = read_count(axis, value, sides[0], 0);
    p.pad_after[d] = read_count(axis, value, sides.back(), 0);
  }
}

void set_field(const AxisOverride& axis, std::string_view value, ConvProblem& p) {
  const std::string_view key = axis.key;
  if (key == "batch") {
    p.batch = read_count(axis, value, value, 1);
  } else if (key == "out_channels") {
    p.out_channels = read_count(axis, value, value, 1);
  } else if (key == "groups") {
    p.groups = read_count(axis, value, value, 1);
  } else if (key == "kernel") {
    p.kernel = read_dims(axis, value, p.spatial_rank, 1, p.kernel);
  } else if (key == "stride") {
    p.stride = read_dims(axis, value, p.spatial_rank, 1, p.stride);
  } else if (key == "dilation") {
    p.dilation = read_dims(axis, value, p.spatial_rank, 1, p.dilation);
  } else if (key == "output_padding") {
    if (!p.transposed()) fail_value(axis, value, "output_padding applies only to op: conv_transpose");
    p.output_padding = read_dims(axis, value, p.spatial_rank, 0, p.output_padding);
  } else if (key == "padding") {
    set_padding(axis, value, p);
  } else if (key == "input") {
    const auto parts = split(value, 'x');
    if (parts.size() != static_cast<std::size_t>(p.spatial_rank) + 2)
      fail_value(axis, value,
                 fmt::format("got {} sizes; expected N x C and {} spatial sizes, as the workload has (a sweep keeps "
                             "the spatial rank)",
                             parts.size(), p.spatial_rank));
    p.batch = read_count(axis, value, parts[0], 1);
    p.in_channels = read_count(axis, value, parts[1], 1);
    for (int d = 0; d < p.spatial_rank; ++d) p.input[d] = read_count(axis, value, parts[d + 2], 1);
  } else if (key == "bias") {
    if (value != "true" && value != "false") fail_value(axis, value, "expected true or false");
    p.bias = value == "true";
  } else if (key == "dtype") {
    const auto dtype = parse_dtype(value);
    if (!dtype) fail_value(axis, value, "unknown dtype; expected fp32, fp16 or bf16");
    p.dtype = *dtype;
  } else if (key == "layout") {
    if (const auto problem = spec::layout_name_problem(value, p.spatial_rank)) fail_value(axis, value, *problem);
    p.layout = *parse_layout(value);
  }
}

// Every combination of one index per axis, the first axis varying slowest.
std::vector<std::vector<std::size_t>> combinations(const std::vector<std::size_t>& sizes) {
  std::vector<std::vector<std::size_t>> all{{}};
  for (std::size_t size : sizes) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& prefix : all)
      for (std::size_t i = 0; i < size; ++i) {
        next.push_back(prefix);
        next.back().push_back(i);
      }
    all = std::move(next);
  }
  return all;
}

}  // namespace

std::string sweep_value_text(const ConvProblem& p, std::string_view key) {
  const int rank = p.spatial_rank;
  if (key == "batch") return std::to_string(p.batch);
  if (key == "out_channels") return std::to_string(p.out_channels);
  if (key == "groups") return std::to_string(p.groups);
  if (key == "kernel") return dims_text(p.kernel, rank);
  if (key == "stride") return dims_text(p.stride, rank);
  if (key == "dilation") return dims_text(p.dilation, rank);
  if (key == "output_padding") return dims_text(p.output_padding, rank);
  if (key == "padding") return padding_text(p);
  if (key == "dtype") return std::string(to_string(p.dtype));
  if (key == "layout") return std::string(to_string(p.layout));
  if (key == "bias") return p.bias ? "true" : "false";
  if (key == "input") {
    std::vector<std::int64_t> shape{p.batch, p.in_channels};
    for (int d = 0; d < rank; ++d) shape.push_back(p.input[d]);
    return fmt::format("{}", fmt::join(shape, "x"));
  }
  return "";
}

std::string sweep_point_name(const std::string& origin, const std::vector<SweepValue>& values) {
  std::string name = origin;
  for (const SweepValue& v : values) name += fmt::format(".{}-{}", v.key, v.value);
  return name;
}

AxisOverride parse_axis_flag(std::string_view text) {
  const std::size_t equals = text.find('=');
  const std::string_view key = text.substr(0, equals);
  if (equals == std::string_view::npos || key.empty())
    throw InputError(fmt::format("--axis: got '{}'; expected KEY=V1,V2,... e.g. --axis batch=1,8,64", text));
  bool known = false;
  for (std::string_view k : kSweepKeys) known = known || k == key;
  if (!known)
    throw InputError(fmt::format("--axis {}: unknown key '{}'{}; expected one of: {}", text, key,
                                 spec::did_you_mean_suffix(key, kSweepKeys, kSweepKeyAliases), fmt::join(kSweepKeys, ", ")));
  AxisOverride axis{std::string(key), {}};
  for (std::string_view value : split(text.substr(equals + 1), ',')) {
    if (value.empty())
      throw InputError(fmt::format("--axis {}: an empty value; expected KEY=V1,V2,... with no empty entry", text));
    axis.values.emplace_back(value);
  }
  return axis;
}

std::vector<Workload> apply_axes(const std::vector<Workload>& workloads, const std::vector<AxisOverride>& axes) {
  if (axes.empty()) return workloads;
  std::vector<std::size_t> sizes;
  std::size_t points = 1;
  for (const AxisOverride& axis : axes) {
    sizes.push_back(axis.values.size());
    points *= axis.values.size();
    if (points > kMaxSweepPoints)
      throw InputError(fmt::format("--axis: {} points per workload; expected at most {}", points, kMaxSweepPoints));
  }
  std::vector<Workload> swept;
  std::set<std::string> names;
  for (const Workload& base : workloads)
    for (const auto& choice : combinations(sizes)) {
      Workload w = base;
      for (std::size_t a = 0; a < axes.size(); ++a) set_field(axes[a], axes[a].values[choice[a]], w.problem);
      if (const auto issue = find_problem_issue(w.problem)) {
        std::vector<std::string> point;
        for (std::size_t a = 0; a < axes.size(); ++a) point.push_back(axes[a].key + "=" + axes[a].values[choice[a]]);
        throw InputError(fmt::format("--axis {}: workload '{}': {}", fmt::join(point, " "), base.name, issue->message));
      }
      if (w.sweep_origin.empty()) w.sweep_origin = base.name;
      for (const AxisOverride& axis : axes) {
        SweepValue value{axis.key, sweep_value_text(w.problem, axis.key)};
        const auto same =
            std::find_if(w.sweep.begin(), w.sweep.end(), [&](const SweepValue& v) { return v.key == axis.key; });
        if (same != w.sweep.end())
          *same = value;
        else
          w.sweep.push_back(value);
      }
      // An axis that resets `batch` or `input` changes what the other's text shows: say both as they now are.
      for (SweepValue& v : w.sweep) v.value = sweep_value_text(w.problem, v.key);
      w.name = sweep_point_name(w.sweep_origin, w.sweep);
      // Names identify results (diffs, dumps): "--axis kernel=3,3x3" on a 2D workload names one point twice.
      if (!names.insert(w.name).second)
        throw InputError(fmt::format("--axis: two points are named '{}'; expected each value once per axis", w.name));
      swept.push_back(std::move(w));
    }
  return swept;
}

}  // namespace kbench
