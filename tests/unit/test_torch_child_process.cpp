// The interpreter probe's child process (torch/child_process.hpp): both outputs read together, so a
// child that fills its stderr pipe while kbench waits on stdout cannot deadlock it; bounded; killed at
// its timeout; and what a failed Python said, summarised into one line.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "torch/child_process.hpp"

using namespace kbench::torch;
using namespace std::chrono_literals;

TEST_CASE("child process: stdout is read while stderr overflows its pipe, and stderr keeps its end") {
  // 1 MiB on stderr before one line on stdout: reading stdout alone first would wait forever.
  const ChildOutcome outcome = run_program(
      {"/bin/sh", "-c", "head -c 1048576 /dev/zero | tr '\\0' x >&2; echo done >&2; echo '{\"ok\": 1}'"},
      ChildLimits{10s, 1 << 20, 4096});
  REQUIRE(outcome.started);
  CHECK_FALSE(outcome.timed_out);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out == "{\"ok\": 1}\n");
  CHECK(outcome.err.size() == 4096);
  CHECK(outcome.err.ends_with("xdone\n"));
}

TEST_CASE("child process: a child that does not answer is killed at its timeout") {
  const auto start = std::chrono::steady_clock::now();
  const ChildLimits limits{300ms, 1 << 20, 4096};
  const ChildOutcome outcome = run_program({"/bin/sh", "-c", "exec sleep 30"}, limits);
  CHECK(outcome.timed_out);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
  CHECK(describe_outcome(outcome, limits) == "gave no answer within 0.3 s and was killed");
}

TEST_CASE("child process: stdout past its bound ends the child, and a missing program is said so") {
  const ChildOutcome flood = run_program({"/bin/sh", "-c", "exec cat /dev/zero"}, ChildLimits{10s, 65536, 4096});
  CHECK(flood.stdout_overflow);
  CHECK(flood.signal != 0);
  const ChildOutcome missing = run_program({"/nonexistent/kbench/python3"}, ChildLimits{});
  CHECK_FALSE(missing.started);
  CHECK(missing.start_error == "No such file or directory");
}

TEST_CASE("child process: a forked body's return, exception and abort") {
  const ChildLimits limits{10s, 1 << 20, 4096};
  CHECK(run_forked([] { return 7; }, limits).exit_code == 7);
  const ChildOutcome thrown = run_forked([]() -> int { throw std::runtime_error("no home"); }, limits);
  CHECK(thrown.exit_code == 1);
  CHECK(thrown.err == "no home\n");
  const ChildOutcome aborted = run_forked([]() -> int { std::abort(); }, limits);
  CHECK(aborted.signal == SIGABRT);
  CHECK(describe_outcome(aborted, limits).starts_with("was killed by signal 6 ("));
}

TEST_CASE("python_failure_summary: the fatal error with its cause, else the last line of a traceback") {
  // Python 3.11 with PYTHONHOME=/nonexistent.
  const std::string fatal =
      "Python path configuration:\n  PYTHONHOME = '/nonexistent'\n  PYTHONPATH = (not set)\n"
      "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding\n"
      "Python runtime state: core initialized\nModuleNotFoundError: No module named 'encodings'\n\n"
      "Current thread 0x00007f1c0b3c6040 (most recent call first):\n  <no Python frame>\n";
  CHECK(python_failure_summary(fatal) ==
        "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding "
        "(ModuleNotFoundError: No module named 'encodings')");
  const std::string traceback =
      "Traceback (most recent call last):\n  File \"<string>\", line 2, in <module>\n"
      "ImportError: cannot import name 'x'\n";
  CHECK(python_failure_summary(traceback) == "ImportError: cannot import name 'x'");
  CHECK(python_failure_summary("") == "it printed nothing on stderr");
}
