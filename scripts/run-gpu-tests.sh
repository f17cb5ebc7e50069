#!/usr/bin/env bash
# run-gpu-tests.sh TEST_PROGRAM - kbench's GPU tests, each test case in a process of its own.
#
# A kernel fault (an illegal address, a misaligned access) is a sticky CUDA error: it poisons the
# context of its process for good, so in one process every test case after it would fail too and
# hide what they test. Here a fault costs its own case only, and so does a hang: a case still running
# after KBENCH_GPU_CASE_TIMEOUT_S seconds (default 60) is killed and reported as timed out. Prints
# one line per case (ok, FAILED, TIMEOUT, skipped) with its seconds, the output of every failed
# case, and a count.
# Exit status: 1 if any case failed, else 77 when no case could use a device (no GPU: the device
# cases exit 77, which ctest and gpu-check.sh read as "skipped"), else 0; 2 when the program cannot
# list its cases.
set -u -o pipefail

program="${1:?usage: run-gpu-tests.sh TEST_PROGRAM}"
case_timeout_s="${KBENCH_GPU_CASE_TIMEOUT_S:-60}"
list="$("$program" --list-test-cases --no-version 2>&1)" || {
  echo "run-gpu-tests: $program cannot list its test cases:"
  echo "$list"
  exit 2
}
# The names sit between the two rules of doctest's listing.
mapfile -t cases < <(printf '%s\n' "$list" | sed -n '/^=\{10,\}$/,/^=\{10,\}$/p' | sed '1d;$d')
if (( ${#cases[@]} == 0 )); then
  echo "run-gpu-tests: $program lists no test cases"
  exit 2
fi

passed=0 failed=0 skipped=0
for name in "${cases[@]}"; do
  # doctest filters are comma-separated lists: a comma inside the name is escaped.
  filter="${name//\\/\\\\}"
  filter="${filter//,/\\,}"
  t0=$SECONDS
  output="$(timeout --kill-after=5 "$case_timeout_s" "$program" "--test-case=$filter" --no-version 2>&1)"
  rc=$?
  took=$(( SECONDS - t0 ))
  # A host-suite case runs before the program looks for a device: without one it passed, then the
  # program exited 77 for the device cases the filter had already excluded.
  if (( rc == 77 )) && grep -qE '^\[doctest\] test cases: +1 \| +1 passed' <<<"$output"; then rc=0; fi
  case $rc in
    0) passed=$((passed + 1)); printf 'ok       %4ss  %s\n' "$took" "$name" ;;
    77) skipped=$((skipped + 1)); printf 'skipped  %4ss  %s\n' "$took" "$name" ;;
    124 | 137) failed=$((failed + 1)); printf 'TIMEOUT  %4ss  %s (killed after %ss)\n' "$took" "$name" "$case_timeout_s"
       printf '%s\n' "$output" | sed 's/^/    | /' ;;
    *) failed=$((failed + 1)); printf 'FAILED   %4ss  %s (exit %s)\n' "$took" "$name" "$rc"
       printf '%s\n' "$output" | sed 's/^/    | /' ;;
  esac
done
echo "run-gpu-tests: ${#cases[@]} test cases: $passed ok, $failed failed, $skipped skipped (no device)"
if (( failed > 0 )); then exit 1; fi
if (( skipped > 0 )); then exit 77; fi
exit 0
