# scripts/gpu-check.sh with KBENCH_CHECK_STEPS: only the selected steps run (here `info`, chosen by
# a glob, and `plan`, which writes plan.json: neither needs a GPU), every other one is listed as skipped, not as a failure, and the
# exit status is 0; a pattern that would match files in the working directory is not expanded.
source "$(dirname "$0")/lib.sh"
build_dir="$(cd "$(dirname "$KBENCH")/../.." && pwd)"
touch "$WORK/info-file"  # a file the glob "inf*" would match if it were expanded
(cd "$WORK" && KBENCH_BUILD_DIR="$build_dir" KBENCH_CHECK_STEPS="inf*, plan, no-such-step" KBENCH_CHECK_BUDGET_S=120 \
  bash "$SRC/scripts/gpu-check.sh" "$WORK/out" >"$WORK/log" 2>&1)
rc=$?
cat "$WORK/log"
[[ $rc == 0 ]] || fail "gpu-check exited $rc with only a step that needs no GPU selected"
summary="$WORK/out/summary.txt"
[[ -f "$summary" ]] || fail "no summary.txt"
grep -Eq '^info +ok ' "$summary" || fail "the selected step did not run"
grep -Eq '^plan +ok ' "$summary" || fail "the plan step did not run"
json_check "$WORK/out/plan.json" 'doc["schema"] == "kbench.plan/1" and len({p["workload"] for p in doc["plans"]}) >= 4'
for name in nvidia-smi-before timing-protocol gpu-tests calibrate seeds-050 merge-seeds seeds-fp16-nhwc seeds-bf16-nhwc seeds-backward examples-backward variants-076-tf32 merge-variants variants-half figures \
  examples profile gpu-soak nvidia-smi-after; do
  grep -Eq "^$name +skipped \(not selected\)" "$summary" || fail "$name is not listed as skipped"
done
grep -q 'all steps ok' "$summary" || fail "skipped steps counted as failures"
[[ -f "$WORK/out/info.log" && ! -f "$WORK/out/gpu-tests.log" ]] || fail "logs of the wrong steps"
