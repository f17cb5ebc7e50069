# Big suites in linear time (docs/workload-format.md, "Sweeps"; docs/cli.md, --output): a one-axis
# sweep of 3,000 points is loaded and planned, and a run of 2,000 results written to --output, in
# seconds. When either was quadratic (yaml-cpp copying the document's nodes into every point; the
# whole document rewritten after each result) they took about half a minute and several minutes.
# The limits are ten times what a loaded CI machine needs; scripts/bench-sweep.sh has the figures.
source "$(dirname "$0")/lib.sh"

sweep_spec() {  # sweep_spec N FILE: a conv swept over batch 1..N
  {
    echo "name: scale"
    echo "op: conv"
    echo "input: [1, 64, 56, 56]"
    echo "out_channels: 64"
    echo "kernel: 3"
    echo "padding: 1"
    printf 'sweep:\n  batch: [%s]\n' "$(seq -s, 1 "$1")"
  } > "$2"
}

sweep_spec 3000 "$WORK/load.yaml"
start=$(date +%s)
timeout 60 "$KBENCH" plan "$WORK/load.yaml" --backends reference --format json > "$WORK/plan.json" 2> "$WORK/err"
status=$?
took=$(( $(date +%s) - start ))
[ $status -eq 0 ] || { cat "$WORK/err"; fail "plan of 3,000 points: exit $status (124: over 60 s)"; }
[ $took -le 10 ] || fail "plan of 3,000 points took $took s (expected a few)"
json_check "$WORK/plan.json" 'len({p["workload"] for p in doc["plans"]}) == 3000'

# 2,000 results, every one skipped (none fits a budget of a nanosecond): writing is all the run does.
sweep_spec 2000 "$WORK/run.yaml"
start=$(date +%s)
timeout 120 "$KBENCH" run "$WORK/run.yaml" --backends reference --time-budget 1e-9 --iterations 1 --warmups 0 --allow-empty \
  --format json --output "$WORK/out.json" > /dev/null 2> "$WORK/err"
status=$?
took=$(( $(date +%s) - start ))
[ $status -eq 0 ] || { tail -3 "$WORK/err"; fail "run of 2,000 results: exit $status (124: over 120 s)"; }
[ $took -le 20 ] || fail "run of 2,000 results with --output took $took s (expected a few)"
json_check "$WORK/out.json" 'len(doc["results"]) == 2000 and not doc["interrupted"]'
echo "ok"
