#!/usr/bin/env bash
# gpu-soak.sh TEST_PROGRAM SECONDS - the GPU tests that draw random shapes, run again on other shapes
# until SECONDS are spent: each pass sets KBENCH_TEST_SEED to the next seed (1, 2, ...; from
# KBENCH_SOAK_FROM, where 0 stands for the default draws, KBENCH_TEST_SEED unset; at most
# KBENCH_SOAK_COUNT seeds), which gives every randomised test a stream of its own
# (tests/common/test_seed.hpp). Under KBENCH_GPU_TESTS_DRY_RUN=1 (tests/gpu/dry_run.hpp) the same
# walk runs on the CPU and checks only that every draw lies in its variant's envelope.
#
# The kernel tests that draw their shapes at random (test_cuda_kernels.cu: direct, depthwise2d,
# direct_tiled, the implicit GEMMs, the transposed phases, the half GEMMs); the cases that run the seeds at full size
# and the 2^30 extents are left out (the same every time, and slow). Test-case filters, not a suite
# filter: tests/gpu/main.cpp runs the host suite first, and a suite filter would add to its own.
# One process per seed (killed after KBENCH_SOAK_SEED_TIMEOUT_S, default 150 s): a fault poisons its
# own seed only. Prints one line per seed (ok, FAILED,
# TIMEOUT) and the start of each failed one's output; the seed reproduces it:
#   KBENCH_TEST_SEED=<seed> TEST_PROGRAM --test-case='<cases>' --test-case-exclude='<excluded>'
# Three failed seeds end the soak (a fault every seed hits says nothing more on the next one).
# Exit status: 1 if any seed failed, 77 when the program found no device, else 0; 2 on bad arguments.
set -u -o pipefail

program="${1:?usage: gpu-soak.sh TEST_PROGRAM SECONDS}"
seconds="${2:?usage: gpu-soak.sh TEST_PROGRAM SECONDS}"
seed="${KBENCH_SOAK_FROM:-1}"
count="${KBENCH_SOAK_COUNT:-1000000}"
for number in "$seconds" "$seed" "$count" "${KBENCH_SOAK_SEED_TIMEOUT_S:-150}"; do
  [[ "$number" =~ ^[0-9]+$ ]] || { echo "gpu-soak: '$number' is not a whole number" >&2; exit 2; }
done
cases='direct*,depthwise2d*,implicit GEMM*,transposed by phases*,stride-1 transposed*,half GEMMs*'
excluded='*full size*,*2^30*'
# A seed runs fourteen test cases in one process; the GPU tests allow one case 60 s (run-gpu-tests.sh).
per_seed_limit_s="${KBENCH_SOAK_SEED_TIMEOUT_S:-150}"
max_failed_seeds=3

# Each seed's `timeout` leads a process group of its own: when this script is stopped (gpu-check's step
# limit), that group goes too, so no seed keeps the GPU busy after the step.
seed_pid=""
stop() {
  [[ -n "$seed_pid" ]] && { kill -TERM -- "-$seed_pid"; sleep 0.2; kill -KILL -- "-$seed_pid"; } 2>/dev/null
  echo "gpu-soak: stopped by a signal during seed $seed"
  exit 143
}
trap stop TERM INT HUP
output_file="$(mktemp)"
trap 'rm -f "$output_file"' EXIT

passed=0 failed=0 deadline=$(( SECONDS + seconds ))
while (( deadline - SECONDS >= 10 && passed + failed < count )); do
  left=$(( deadline - SECONDS ))
  limit=$(( left < per_seed_limit_s ? left : per_seed_limit_s ))
  t0=$SECONDS
  seed_value="$seed"
  (( seed == 0 )) && seed_value=""  # 0: the default draws
  # In the background, so that `wait` returns to the trap when this script is signalled.
  KBENCH_TEST_SEED="$seed_value" timeout --kill-after=5 "$limit" "$program" "--test-case=$cases" \
    "--test-case-exclude=$excluded" --no-version >"$output_file" 2>&1 </dev/null &
  seed_pid=$!
  wait "$seed_pid"
  rc=$?
  seed_pid=""
  output="$(cat "$output_file")"
  took=$(( SECONDS - t0 ))
  case $rc in
    0) passed=$((passed + 1))
       # The device pass's count (the last doctest summary): that the filters still reach the cases.
       cases_run=$(printf '%s\n' "$output" |
         sed -n 's/^\[doctest\] test cases: *[0-9]* | *\([0-9]*\) passed.*/\1/p' | tail -n 1)
       printf 'ok       %4ss  seed %s (%s test cases)\n' "$took" "$seed" "${cases_run:-?}" ;;
    77) echo "gpu-soak: no device"; printf '%s\n' "$output" | tail -n 3; exit 77 ;;
    124 | 137)
      # Cut short by the deadline: not a finding, and the last seed.
      if (( limit < per_seed_limit_s )); then printf 'stopped  %4ss  seed %s (time is up)\n' "$took" "$seed"; break; fi
      failed=$((failed + 1)); printf 'TIMEOUT  %4ss  seed %s (killed after %ss)\n' "$took" "$seed" "$limit"
      printf '%s\n' "$output" | tail -n 40 | sed 's/^/    | /' ;;
    *) failed=$((failed + 1)); printf 'FAILED   %4ss  seed %s (exit %s)\n' "$took" "$seed" "$rc"
       printf '%s\n' "$output" | head -n 80 | sed 's/^/    | /' ;;
  esac
  seed=$((seed + 1))
  (( failed < max_failed_seeds )) || { echo "gpu-soak: $failed seeds failed; stopping"; break; }
done
echo "gpu-soak: $passed seeds ok, $failed failed (cases $cases; excluded $excluded)"
(( failed == 0 ))
