#pragma once
// `sweep:` in a spec, expanded where the YAML is loaded: a workload mapping with a sweep becomes one
// "sweep point" node per combination of its values, each holding the original mapping and the value
// nodes of its point. Nothing is copied, so every value keeps its place in the file: the reader reads
// a point as the mapping with those values in place of its keys, and an error in a combination names
// the value that made it ("sweep.kernel[2]") at its line and column. Private to lib/spec (yaml-cpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "spec/yaml_reader.hpp"

namespace kbench::spec {

// A document with every swept workload mapping replaced by its points: a mapping becomes a list of
// them, a list has each swept entry replaced by its points in place. Other documents are returned as
// they are. The sweep itself is checked here: a mapping of known keys, each a non-empty list, at
// most kMaxSweepPoints combinations.
YAML::Node expand_sweeps(const SpecReader& reader, const YAML::Node& document);

// One point, read back: the workload mapping it came from and its values, in axis order, each
// located at the list entry it was written as.
struct SweepPointNode {
  Located workload;
  std::vector<std::pair<std::string, Located>> values;
};

// The point a node stands for, or nothing when it is an ordinary workload mapping.
std::optional<SweepPointNode> as_sweep_point(const YAML::Node& node);

}  // namespace kbench::spec
