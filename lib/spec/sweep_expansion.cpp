#include "spec/sweep_expansion.hpp"

#include <fmt/format.h>

#include "spec/sweep.hpp"

namespace kbench::spec {

namespace {

// Marks the nodes made here; a spec has no reason to write this tag, and a node that carries it
// without a point's shape is read as an ordinary mapping.
constexpr const char* kPointTag = "!kbench/sweep-point";

std::optional<YAML::Node> sweep_of(const YAML::Node& mapping) {
  if (!mapping.IsMap()) return std::nullopt;
  for (auto it = mapping.begin(); it != mapping.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == "sweep") return YAML::Node(it->second);
  return std::nullopt;
}

struct Axis {
  std::string key;
  std::vector<Located> values;
};

std::vector<Axis> read_axes(const SpecReader& reader, const YAML::Node& sweep) {
  const SourcePosition position = position_of(sweep.Mark());
  const MappingFields fields(reader, Located{sweep, "sweep", position}, {kSweepKeys, {}},
                             "a mapping of keys to lists of values, e.g. sweep: {batch: [1, 8, 64]}");
  std::vector<Axis> axes;
  std::size_t points = 1;
  for (const std::string& key : fields.keys()) {
    const Located list = *fields.find(key);
    Axis axis{key, reader.read_sequence(list, fmt::format("a list of values, e.g. {}: [1, 8, 64]", key))};
    if (axis.values.empty()) reader.fail(list, "got an empty list; expected at least one value to sweep");
    points *= axis.values.size();
    if (points > kMaxSweepPoints)
      reader.fail(list, fmt::format("the sweep has {} or more points; expected at most {}", points, kMaxSweepPoints));
    axes.push_back(std::move(axis));
  }
  if (axes.empty()) reader.fail(position, "sweep", "got an empty mapping; expected at least one key with values");
  return axes;
}

// One node per combination, the first axis varying slowest: {workload: <mapping>, values: [[key,
// index, value], ...]} (shared, not copied: yaml-cpp nodes are references).
void append_points(const SpecReader& reader, const YAML::Node& mapping, const YAML::Node& sweep, YAML::Node& out) {
  const std::vector<Axis> axes = read_axes(reader, sweep);
  std::vector<std::size_t> choice(axes.size(), 0);
  for (;;) {
    // Each new node joins OUT before it refers to anything of the document (out_sharing_memory_with).
    YAML::Node point(YAML::NodeType::Map);
    out.push_back(point);
    point.SetTag(kPointTag);
    point["workload"] = mapping;
    YAML::Node values(YAML::NodeType::Sequence);
    point["values"] = values;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      YAML::Node entry(YAML::NodeType::Sequence);
      values.push_back(entry);
      entry.push_back(axes[a].key);
      entry.push_back(choice[a]);
      entry.push_back(axes[a].values[choice[a]].node);
    }
    // Odometer: the last axis turns fastest.
    std::size_t a = axes.size();
    while (a > 0 && ++choice[a - 1] == axes[a - 1].values.size()) choice[--a] = 0;
    if (a == 0) return;
  }
}

// A new sequence that shares DOCUMENT's node memory. yaml-cpp gives every new node a memory of its
// own and, when one node is linked to another, copies the smaller side's set of nodes into the
// other's (memory_holder::merge). A point made on its own and then linked to the workload mapping
// would copy the whole document's nodes (the sweep's N values among them) once per point: N² for a
// sweep of N points (800 points took 2.4 s, 10,000 would take minutes). Sharing the memory once,
// and linking each new node into it while it is still small, keeps every link cheap.
YAML::Node out_sharing_memory_with(const YAML::Node& document) {
  YAML::Node out(YAML::NodeType::Sequence);
  out.push_back(document);  // merges the document's memory into OUT's, once
  out.remove(0);
  return out;
}

}  // namespace

YAML::Node expand_sweeps(const SpecReader& reader, const YAML::Node& document) {
  if (const auto sweep = sweep_of(document)) {
    YAML::Node points = out_sharing_memory_with(document);
    append_points(reader, document, *sweep, points);
    return points;
  }
  if (!document.IsSequence()) return document;
  bool swept = false;
  for (const YAML::Node& entry : document) swept = swept || sweep_of(entry).has_value();
  if (!swept) return document;  // as it was, positions and all
  YAML::Node expanded = out_sharing_memory_with(document);
  for (const YAML::Node& entry : document) {
    if (const auto sweep = sweep_of(entry))
      append_points(reader, entry, *sweep, expanded);
    else
      expanded.push_back(entry);
  }
  return expanded;
}

std::optional<SweepPointNode> as_sweep_point(const YAML::Node& node) {
  if (!node.IsMap() || node.Tag() != kPointTag) return std::nullopt;
  const YAML::Node workload = node["workload"];
  const YAML::Node values = node["values"];
  if (!workload || !workload.IsMap() || !values || !values.IsSequence()) return std::nullopt;
  SweepPointNode point{Located{workload, "", position_of(workload.Mark())}, {}};
  for (const YAML::Node& entry : values) {
    const std::string key = entry[0].Scalar();
    const YAML::Node value = entry[2];
    const std::string path = element_path(child_path("sweep", key), entry[1].as<std::size_t>());
    point.values.emplace_back(key, Located{value, path, position_of(value.Mark())});
  }
  return point;
}

}  // namespace kbench::spec
