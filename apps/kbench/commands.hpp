#pragma once
// Each subcommand: `add_*` declares its flags on a CLI11 subcommand and returns what runs it: `check`,
// which looks at every path and flag combination before any work (an InputError, exit 2, costs
// nothing), then `run`, which returns the process exit code (docs/exit-codes.md).
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kbench::cli {

// The argument vector the process was started with (argv[0] first), recorded by parse_command_line:
// `run --devices` starts its children with it.
const std::vector<std::string>& process_arguments();

struct Command {
  std::function<void()> check = [] {};
  std::function<int()> run;
};

Command add_run_command(CLI::App& app);        // kbench run
Command add_compare_command(CLI::App& app);    // kbench compare
Command add_list_command(CLI::App& app);       // kbench list
Command add_plan_command(CLI::App& app);       // kbench plan
Command add_info_command(CLI::App& app);       // kbench info
Command add_calibrate_command(CLI::App& app);  // kbench calibrate
Command add_diff_command(CLI::App& app);       // kbench diff
Command add_report_command(CLI::App& app);     // kbench report
Command add_merge_command(CLI::App& app);      // kbench merge
Command add_import_command(CLI::App& app);     // kbench import

}  // namespace kbench::cli
