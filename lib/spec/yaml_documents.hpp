#pragma once
// YAML text -> its documents, with every parser failure reported as a located spec error, and every
// swept workload mapping replaced by its points (spec/sweep_expansion.hpp).
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "spec/yaml_reader.hpp"

namespace kbench::spec {

// Throws (through `reader`) "ORIGIN:LINE:COL: invalid YAML: ...; expected well-formed YAML" on a syntax error.
std::vector<YAML::Node> load_documents(const SpecReader& reader, const std::string& text);

}  // namespace kbench::spec
