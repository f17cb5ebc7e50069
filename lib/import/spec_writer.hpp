#pragma once
// Workloads written back as a YAML spec (docs/workload-format.md) that `kbench run` reads into the same
// workloads: what `kbench import` prints. Only what differs from the format's defaults is written, except
// the keys every reader looks for first (op, dtype, input, out_channels, kernel).
#include <string>
#include <vector>

#include "spec/workload.hpp"

namespace kbench::import {

// A YAML list of workload mappings, after `header` (each of its lines written as a `# ` comment).
std::string write_spec(const std::vector<Workload>& workloads, const std::string& header = "");

// One workload's mapping as list entry text ("- name: ...\n  op: ...\n").
std::string write_workload_entry(const Workload& workload);

}  // namespace kbench::import
