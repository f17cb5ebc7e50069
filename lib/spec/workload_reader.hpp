#pragma once
// One workload mapping -> a validated Workload (every key read, typed, and the problem checked as a whole).
#include "spec/located_error.hpp"
#include "spec/workload.hpp"
#include "spec/yaml_reader.hpp"

namespace kbench::spec {

struct ReadWorkload {
  Workload workload;
  SourcePosition name_position;  // for "duplicate workload name" messages
  std::vector<Pass> passes;      // `pass:` as written (the loader expands a list: spec/pass_list.hpp)
};

ReadWorkload read_workload(const SpecReader& reader, const Located& mapping);

}  // namespace kbench::spec
