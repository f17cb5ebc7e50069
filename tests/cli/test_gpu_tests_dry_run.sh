# The GPU kernel tests' random draws, checked on the CPU: under KBENCH_GPU_TESTS_DRY_RUN=1 the device
# cases run without a device and check only that every problem they draw lies in the envelope of the
# variant it forces. Walked the way the GPU soak walks them (scripts/gpu-soak.sh), over the default
# draws (seed 0) and 199 soak seeds: a draw outside its envelope would fail on the GPU as a test bug,
# costing a GPU visit to find. Where this build has no GPU test program (no CUDA), nothing to check.
source "$(dirname "$0")/lib.sh"

GPU_TESTS="$(dirname "$KBENCH")/../../tests/gpu/kbench_gpu_tests"
if [[ ! -x "$GPU_TESTS" ]]; then
  echo "no GPU test program in this build (no CUDA): nothing to check"
  echo "PASS"
  exit 0
fi
KBENCH_GPU_TESTS_DRY_RUN=1 KBENCH_SOAK_FROM=0 KBENCH_SOAK_COUNT=200 bash "$SRC/scripts/gpu-soak.sh" "$GPU_TESTS" 300 \
  >"$WORK/dry.txt" 2>&1
rc=$?
tail -n 5 "$WORK/dry.txt"
[[ $rc == 0 ]] || { cat "$WORK/dry.txt"; fail "a GPU kernel test drew a problem outside its variant's envelope (exit $rc)"; }
grep -q '^gpu-soak: 200 seeds ok, 0 failed' "$WORK/dry.txt" || fail "not all 200 seeds ran"
# The dry run must reach the kernel tests (thirteen cases today) on every seed.
cases=$(sed -n 's/^ok .* seed [0-9]* (\([0-9]*\) test cases)$/\1/p' "$WORK/dry.txt" | sort -u)
[[ "$(wc -l <<<"$cases")" == 1 && "$cases" -ge 9 ]] || fail "the seeds ran ${cases:-no} kernel test cases, expected at least 9 each"
echo "PASS"
