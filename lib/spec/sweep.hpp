#pragma once
// Sweeps: one workload run at every combination of a few parameter values, as nvbench's axes. A spec
// writes them as `sweep: {batch: [1, 8, 64], kernel: [3, 5]}` (read in spec/sweep_expansion.hpp, with
// errors located in the file); the command line as `--axis KEY=V1,V2` (apply_axes, here). Either way
// the points are the Cartesian product, the first axis varying slowest (as nested loops in the order
// written), and each is an ordinary validated Workload named "<name>.<key>-<value>..." that
// remembers its origin and axis values (Workload::sweep_origin, Workload::sweep).
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "spec/did_you_mean.hpp"
#include "spec/workload.hpp"

namespace kbench {

// The keys a sweep may vary: every problem key of a spec, and `batch` (input[0] alone).
inline constexpr std::array<std::string_view, 12> kSweepKeys = {
    "batch",  "dtype",   "layout",   "input",  "out_channels", "kernel",
    "stride", "padding", "dilation", "groups", "bias",         "output_padding",
};

// What people write for a sweep key on the command line (`--axis batchsize=1,8`), and the key they mean.
inline constexpr std::array<spec::KnownAlias, 10> kSweepKeyAliases = {{
    {"batchsize", "batch"},   {"batch_size", "batch"},  {"n", "batch"},         {"kernel_size", "kernel"},
    {"pad", "padding"},       {"pads", "padding"},      {"precision", "dtype"}, {"data_type", "dtype"},
    {"memory_format", "layout"}, {"channels", "out_channels"},
}};

// At most this many points per workload: a typo (an extra digit in a range) should not queue a week of runs.
inline constexpr std::size_t kMaxSweepPoints = 10000;

// `key`'s value in `problem` as a point's name shows it (letters, digits, '_' only, so names stay
// safe as file names): "8", "fp32", "nhwc" (a layout by its rank-independent name), "true", "16x3x32x32" (input), "3"
// (the same in every dim) or "3x5" (per dim), padding "1" / "1x2" or, when before and after differ, "1_0x2_2"
// (before_after per dim).
std::string sweep_value_text(const ConvProblem& problem, std::string_view key);

// "<origin>.<key>-<value>" for each value in order, e.g. "conv.batch-8.kernel-3x5".
std::string sweep_point_name(const std::string& origin, const std::vector<SweepValue>& values);

// One --axis flag: KEY=V1,V2,...
struct AxisOverride {
  std::string key;
  std::vector<std::string> values;
};

// "KEY=V1,V2" -> {KEY, [V1, V2]}; throws InputError naming --axis for an unknown key (with a
// suggestion), a missing '=', or an empty value.
AxisOverride parse_axis_flag(std::string_view text);

// Every workload at every combination of the axes' values (the first axis varying slowest), each
// re-validated and named as a sweep point. An axis a workload was already swept along (in its spec)
// replaces that axis's value; the others are added after it. Values are written as in the point
// names: integers, 'x'-joined lists per spatial dim ("3x5"), padding pairs "before_after", fp32 /
// fp16 / bf16, nchw / nhwc (or the rank's own name, ncw, ndhwc...), true/false. Throws InputError "--axis KEY=...: ..."
// naming the value, and the workload when the problem it makes breaks a rule, or when two points would share a name. No
// axes: the workloads unchanged.
std::vector<Workload> apply_axes(const std::vector<Workload>& workloads, const std::vector<AxisOverride>& axes);

}  // namespace kbench
