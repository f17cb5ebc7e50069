#!/usr/bin/env bash
# The CPU test suite (unit tests and CLI tests) built and run under AddressSanitizer and
# UndefinedBehaviorSanitizer: the `sanitize` preset (CPU only, RelWithDebInfo, KBENCH_ENABLE_SANITIZERS).
# Any sanitizer report fails the test that triggered it (UBSan does not recover; ASan aborts), and
# leaks are reported at exit. Then every libFuzzer target (scripts/fuzz.sh: spec parser, results reader,
# command line) for a bounded time, KBENCH_CI_FUZZ_SECONDS each (default 30; 0 skips them).
# See docs/robustness.md for what it costs and what it found.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# halt_on_error/abort_on_error: a report ends the process with a failing status, so ctest sees it.
# strict_string_checks and detect_stack_use_after_return catch more at a small cost.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
bash scripts/build.sh sanitize
ctest --preset sanitize -j "$(nproc)" "$@"
fuzz_seconds="${KBENCH_CI_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" -gt 0 ]; then
  fuzz_build="${KBENCH_FUZZ_BUILD_DIR:-build/fuzz}"
  KBENCH_FUZZ_BUILD_DIR="$fuzz_build" bash scripts/fuzz.sh "$fuzz_seconds" all
  # Every seed and past finding once through its targets (the fuzz run above may not reach them all).
  ctest --test-dir "$fuzz_build" -L fuzz --output-on-failure
fi
