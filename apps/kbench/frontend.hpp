#pragma once
// The command line front end: every subcommand declared on one CLI11 app, an argument vector parsed
// into the command it asks for. main() runs that command; the argv fuzzer (tests/fuzz/fuzz_cli.cpp)
// parses and checks without running anything.
#include <iosfwd>
#include <map>
#include <memory>
#include <variant>

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace kbench::cli {

struct Frontend {
  CLI::App app;
  std::map<CLI::App*, Command> commands;
};

std::unique_ptr<Frontend> make_frontend();

// The command argv asks for, or the exit code when parsing ends the process (0 after --help or
// --version, 2 after a usage error); help and errors are written to `out` and `err`.
std::variant<const Command*, int> parse_command_line(Frontend& frontend, int argc, const char* const* argv,
                                                     std::ostream& out, std::ostream& err);

// Checks and runs a parsed command, mapping exceptions to exit codes (docs/exit-codes.md).
int run_command(const Command& command, std::ostream& err);

}  // namespace kbench::cli
