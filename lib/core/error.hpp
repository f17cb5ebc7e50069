#pragma once
// Errors that carry their own exit status, so the CLI maps them without guessing.
#include <stdexcept>
#include <string>

namespace kbench {

// Documented in docs/exit-codes.md.
enum ExitCode : int { exit_ok = 0, exit_result_failed = 1, exit_bad_input = 2, exit_interrupted = 130 };

// Bad user input: a spec, a flag, a peaks file. The message already names where (file:line:col, key).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kbench
