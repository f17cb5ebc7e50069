#pragma once
// A validated workload as read from a YAML spec.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "problem/conv_problem.hpp"

namespace kbench {

// A published timing shown beside ours; informative only, never used in a verdict.
struct PublishedRecord {
  std::string hardware;        // "NVIDIA H100 80GB HBM3"
  std::string implementation;  // "PyTorch eager"
  double ms = 0;
  double stdev_ms = -1;  // < 0 when not published
  std::string source;
  // The math it ran under (`math:`): tf32 where TF32 was allowed on fp32 data (PyTorch's default for
  // cuDNN convolutions, KernelBench's records), fp32 where it was not; empty when the source does not say.
  std::optional<MathMode> math;
};

// One axis value that a sweep (the spec's `sweep:` or --axis) gave a workload, as its name shows it:
// {"batch", "8"}, {"kernel", "3x5"} (spec/sweep.hpp).
struct SweepValue {
  std::string key;
  std::string value;
  friend bool operator==(const SweepValue&, const SweepValue&) = default;
};

struct Workload {
  std::string name;
  std::string description;
  ConvProblem problem;
  std::vector<PublishedRecord> records;
  std::string source_file;  // where it was read, for messages
  int source_line = 0;      // 1-based line of the workload's mapping
  // Set for a point of a sweep: the name before the sweep's suffix (which points of one sweep share,
  // so reports can draw them as a series) and the axis values of this point, in axis order.
  std::string sweep_origin;
  std::vector<SweepValue> sweep;
  // Set for one of the workloads a list of passes expanded (spec/pass_list.hpp): the name before ".<pass>".
  std::string pass_origin;
  // How many times the model this workload was taken from runs it (`count:`, e.g. one per identical
  // layer of a network): suite totals weight the workload's time by it. 1 unless the spec says otherwise.
  std::int64_t count = 1;
};

}  // namespace kbench
