# scripts/gpu-check.sh with KBENCH_CHECK_STEPS and the real kbench: only the selected steps run (here
# `plan`, and `info`, chosen by a glob, which runs anyway: it is the gate), every other one is listed
# as skipped, not as a failure; a pattern that would match files in the working directory is not
# expanded. Where kbench sees no GPU (this machine, CI), `kbench info` lists no device 0 and the visit
# stops there: plan is NOT RUN (no GPU), the summary says why, and the exit status is non-zero; on a GPU
# machine plan writes plan.json and the exit status is 0.
source "$(dirname "$0")/lib.sh"
build_dir="$(cd "$(dirname "$KBENCH")/../.." && pwd)"
touch "$WORK/info-file"  # a file the glob "inf*" would match if it were expanded
(cd "$WORK" && KBENCH_BUILD_DIR="$build_dir" KBENCH_CHECK_STEPS="inf*, plan, no-such-step" KBENCH_CHECK_BUDGET_S=120 \
  bash "$SRC/scripts/gpu-check.sh" "$WORK/out" >"$WORK/log" 2>&1)
rc=$?
cat "$WORK/log"
summary="$WORK/out/summary.txt"
[[ -f "$summary" ]] || fail "no summary.txt"
grep -Eq '^info +ok ' "$summary" || fail "the info step did not run"
if "$KBENCH" info | grep -Eq '^device 0: +[^ ]'; then
  [[ $rc == 0 ]] || fail "gpu-check exited $rc with only steps that need no GPU time selected"
  grep -Eq '^plan +ok ' "$summary" || fail "the plan step did not run"
  json_check "$WORK/out/plan.json" 'doc["schema"] == "kbench.plan/1" and len({p["workload"] for p in doc["plans"]}) >= 4'
  grep -q 'all steps ok' "$summary" || fail "skipped steps counted as failures"
else
  [[ $rc != 0 ]] || fail "gpu-check exited 0 on a machine where kbench sees no GPU"
  grep -Eq '^plan +NOT RUN \(no GPU\)' "$summary" || fail "plan ran without a GPU"
  grep -q '^STOPPED: kbench info lists no device 0' "$summary" || fail "the summary does not say why the visit stopped"
  [[ ! -f "$WORK/out/plan.json" ]] || fail "plan.json written without a GPU"
  grep -q '1 step(s) failed or did not run' "$summary" || fail "skipped steps counted as failures"
fi
for name in nvidia-smi-before timing-protocol gpu-tests calibrate seeds-050 merge-seeds seeds-fp16-nhwc seeds-bf16-nhwc \
  seeds-backward examples-backward variants-076-tf32 merge-variants variants-half figures examples memcheck racecheck \
  profile gpu-soak nvidia-smi-after; do
  grep -Eq "^$name +skipped \(not selected\)" "$summary" || fail "$name is not listed as skipped"
done
[[ -f "$WORK/out/info.log" && ! -f "$WORK/out/gpu-tests.log" ]] || fail "logs of the wrong steps"
echo "PASS"
