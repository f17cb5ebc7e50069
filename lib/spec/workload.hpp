#pragma once
// A validated workload as read from a YAML spec.
#include <string>
#include <vector>

#include "problem/conv_problem.hpp"

namespace kbench {

// A published timing shown beside ours; informative only, never used in a verdict.
struct PublishedRecord {
  std::string hardware;        // "NVIDIA H100 80GB HBM3"
  std::string implementation;  // "PyTorch eager"
  double ms = 0;
  double stdev_ms = -1;        // < 0 when not published
  std::string source;
};

struct Workload {
  std::string name;
  std::string description;
  ConvProblem problem;
  std::vector<PublishedRecord> records;
  std::string source_file;  // where it was read, for messages
  int source_line = 0;      // 1-based line of the workload's mapping
};

}  // namespace kbench
