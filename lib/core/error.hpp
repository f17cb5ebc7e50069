#pragma once
// Errors that carry their own exit status, so the CLI maps them without guessing.
#include <stdexcept>
#include <string>

namespace kbench {

// Documented in docs/exit-codes.md.
enum ExitCode : int {
  exit_ok = 0,
  exit_result_failed = 1,
  exit_bad_input = 2,
  exit_output_failed = 3,  // work was done, but a report or dump could not be written (disk full)
  exit_nothing_measured = 4,  // a run in which no result was verified and timed (pytest's "no tests ran", 5)
  exit_interrupted = 130
};

// Bad user input: a spec, a flag, a peaks file. The message already names where (file:line:col, key).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A report, diff or dump that could not be written once the work was done (the disk filled up, a device
// refused the bytes). Not an InputError: every destination is checked before work starts, so this is
// found late, and the CLI still prints what it has, then exits exit_output_failed. The message names the path.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kbench
