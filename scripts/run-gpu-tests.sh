#!/usr/bin/env bash
# run-gpu-tests.sh TEST_PROGRAM [SECONDS] - kbench's GPU tests, each test case in a process of its own.
#
# A kernel fault (an illegal address, a misaligned access) is a sticky CUDA error: it poisons the
# context of its process for good, so in one process every test case after it would fail too and
# hide what they test. Here a fault costs its own case only, and so does a hang: a case still running
# after KBENCH_GPU_CASE_TIMEOUT_S seconds (default 60) is killed and reported as timed out. Prints
# one line per case (ok, FAILED, TIMEOUT, skipped, NOT RUN) with its seconds, the output of every
# failed case, and a count.
# SECONDS (default: KBENCH_STEP_SECONDS, which gpu-check.sh sets to its step's time; none when unset,
# decimals allowed) bounds the whole run: each case is cut at that deadline, and the cases after it are
# NOT RUN. Each case runs under a `timeout` of its own, which leads a process group of its own; when this
# script is stopped (TERM, INT, HUP: gpu-check's step limit), it kills that group too, so no case
# outlives the step and keeps the GPU busy during the next one's timings.
# Exit status: 1 if any case failed, else 77 when no case could use a device (no GPU: the device
# cases exit 77, which ctest and gpu-check.sh read as "skipped"), else 0; 2 when the program cannot
# list its cases.
set -u -o pipefail

program="${1:?usage: run-gpu-tests.sh TEST_PROGRAM [SECONDS]}"
case_timeout_s="${KBENCH_GPU_CASE_TIMEOUT_S:-60}"
total_s="${2:-${KBENCH_STEP_SECONDS:-}}"
for number in "$case_timeout_s" "$total_s"; do
  [[ -z "$number" || "$number" =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "run-gpu-tests: '$number' is not a number of seconds"; exit 2; }
done
now_ms() { local t="${EPOCHREALTIME//[.,]/}"; echo $(( 10#$t / 1000 )); }
to_ms() { awk -v s="$1" 'BEGIN { printf "%d", s * 1000 }'; }
deadline_ms=""
[[ -n "$total_s" ]] && deadline_ms=$(( $(now_ms) + $(to_ms "$total_s") ))

# The running case's `timeout`, whose process group holds the case: killed with this script.
case_pid=""
stop() {
  if [[ -n "$case_pid" ]]; then
    kill -TERM -- "-$case_pid" 2>/dev/null
    sleep 0.2
    kill -KILL -- "-$case_pid" 2>/dev/null
  fi
  echo "run-gpu-tests: stopped by a signal during the case above"
  exit 143
}
trap stop TERM INT HUP
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

passed=0 failed=0 skipped=0 not_run=0
output_file="$(mktemp)"
trap 'rm -f "$output_file"' EXIT
for name in "${cases[@]}"; do
  limit_ms=$(to_ms "$case_timeout_s")
  if [[ -n "$deadline_ms" ]]; then
    left_ms=$(( deadline_ms - $(now_ms) ))
    if (( left_ms < 100 )); then
      not_run=$((not_run + 1)); printf 'NOT RUN     -  %s (the %ss of this run are spent)\n' "$name" "$total_s"
      continue
    fi
    (( left_ms < limit_ms )) && limit_ms=$left_ms
  fi
  # doctest filters are comma-separated lists: a comma inside the name is escaped.
  filter="${name//\\/\\\\}"
  filter="${filter//,/\\,}"
  t0=$SECONDS
  # In the background, so that `wait` returns to the trap when this script is signalled.
  timeout --kill-after=2 "$(printf '%d.%03d' $((limit_ms / 1000)) $((limit_ms % 1000)))" \
    "$program" "--test-case=$filter" --no-version >"$output_file" 2>&1 </dev/null &
  case_pid=$!
  wait "$case_pid"
  rc=$?
  case_pid=""
  output="$(cat "$output_file")"
  took=$(( SECONDS - t0 ))
  # A host-suite case runs before the program looks for a device: without one it passed, then the
  # program exited 77 for the device cases the filter had already excluded.
  if (( rc == 77 )) && grep -qE '^\[doctest\] test cases: +1 \| +1 passed' <<<"$output"; then rc=0; fi
  case $rc in
    0) passed=$((passed + 1)); printf 'ok       %4ss  %s\n' "$took" "$name" ;;
    77) skipped=$((skipped + 1)); printf 'skipped  %4ss  %s\n' "$took" "$name" ;;
    124 | 137) failed=$((failed + 1)); printf 'TIMEOUT  %4ss  %s (killed after %ss)\n' "$took" "$name" "$(awk -v m="$limit_ms" 'BEGIN { printf "%g", m / 1000 }')"
       printf '%s\n' "$output" | sed 's/^/    | /' ;;
    *) failed=$((failed + 1)); printf 'FAILED   %4ss  %s (exit %s)\n' "$took" "$name" "$rc"
       printf '%s\n' "$output" | sed 's/^/    | /' ;;
  esac
done
echo "run-gpu-tests: ${#cases[@]} test cases: $passed ok, $failed failed, $skipped skipped (no device)$(
  (( not_run )) && echo ", $not_run not run (out of time)")"
if (( failed > 0 || not_run > 0 )); then exit 1; fi
if (( skipped > 0 )); then exit 77; fi
exit 0
