#pragma once
// Asking a child process something, safely: its stdout and stderr are read together (poll), so a
// child that writes a lot to one while kbench waits on the other (PYTHONVERBOSE=2 on stderr) cannot
// deadlock; each is bounded in memory; and a child that does not finish within the timeout is killed.
// Used to probe the chosen Python, and to start the embedded interpreter once in a throwaway child
// before this process does (a runtime that cannot start aborts the process it starts in).
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kbench::torch {

struct ChildLimits {
  std::chrono::milliseconds timeout{60000};
  std::size_t max_stdout = std::size_t{1} << 20;  // more is an error: the reports read are a few kB
  std::size_t max_stderr = std::size_t{64} << 10; // the last this many bytes are kept
};

struct ChildOutcome {
  bool started = false;
  int exit_code = -1;        // when it exited
  int signal = 0;            // when a signal ended it (SIGKILL at the timeout included)
  std::string out, err;      // err holds the last max_stderr bytes
  std::string start_error;   // why it never started
  bool timed_out = false;    // killed (SIGKILL) at the timeout
  bool stdout_overflow = false;  // printed more than max_stdout (then killed)
};

// ARGV[0] looked up on PATH, with stdin from /dev/null and signal dispositions reset to the defaults
// (kbench ignores SIGPIPE; the child must not inherit that).
ChildOutcome run_program(const std::vector<std::string>& argv, const ChildLimits& limits);

// BODY run in a forked copy of this process, its return value the exit status (the child ends with
// _exit, running no destructors or atexit handlers); a BODY that aborts or crashes ends by its signal.
ChildOutcome run_forked(const std::function<int()>& body, const ChildLimits& limits);

// What a failed Python said, in one line: its "Fatal Python error: ..." line with the exception that
// caused it, else its last line that is not part of a traceback's frames.
std::string python_failure_summary(const std::string& stderr_text);

// How it ended, in words: "exit 1", "killed by signal 6 (Aborted)", "no answer within 60 s (killed)".
std::string describe_outcome(const ChildOutcome& outcome, const ChildLimits& limits);

}  // namespace kbench::torch
