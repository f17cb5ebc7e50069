#pragma once
// YAML spec files -> validated workloads. Every error is an InputError whose message starts with
// "FILE:LINE:COL: KEY.PATH: " and says what was expected.
#include <string>
#include <vector>

#include "spec/workload.hpp"

namespace kbench {

// "-" names standard input (`kbench import miopen cmds.txt | kbench run -`), read as one spec file.
inline constexpr const char* kStandardInputPath = "-";
inline constexpr const char* kStandardInputName = "<stdin>";

// One file (a mapping, or a sequence of mappings), or a directory: every *.yaml / *.yml under it,
// recursively, in sorted path order; or "-". Every bad file is read to its first error, and one InputError
// names them all (one per line after a count when there are several).
std::vector<Workload> load_workloads(const std::string& path);

// The spec files load_workloads reads for PATH: PATH itself, or every *.yaml / *.yml under a
// directory, sorted. Throws InputError as load_workloads does (a link loop, no spec at all).
std::vector<std::string> spec_files(const std::string& path);

// Every path in turn, as above, their workloads concatenated; throws InputError when none holds one.
std::vector<Workload> load_workloads(const std::vector<std::string>& paths);

// Parse YAML text; `origin` names it in messages (a path, or "<string>").
std::vector<Workload> parse_workloads(const std::string& yaml_text, const std::string& origin);

}  // namespace kbench
