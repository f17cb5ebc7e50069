#pragma once
// What `kbench COMMAND --help` shows beyond the flags themselves: the flags in groups (what runs, how
// it is timed, how it is checked, where the report goes), and examples to copy, as `git` and
// google/benchmark's --help do.
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace kbench::cli {

struct FlagGroup {
  std::string title;               // "Timing"
  std::vector<std::string> flags;  // "--iterations", ...
};

// Puts each named flag of `app` in its group; flags named in no group stay under "Options".
void group_flags(CLI::App& app, const std::vector<FlagGroup>& groups);

// "Examples:" and one command a line, after the flags.
void set_examples(CLI::App& app, const std::vector<std::string>& examples);

}  // namespace kbench::cli
