# `kbench diff` verdicts and exit codes on documents of the same suite (real runs, retimed with
# synthetic samples so the verdicts are known), unusable input, and the gbench / dashboard formats
# of `kbench run` and `kbench report` checked against their schemas.
source "$(dirname "$0")/lib.sh"
SYNTH="python3 $SRC/tests/cli/synthetic_results.py"
FORMATS="$SRC/tests/data/formats"

# diff_expect CODE ARGS...: runs kbench diff and checks its exit status.
diff_expect() {
  local want="$1"; shift
  "$KBENCH" diff "$@" > "$WORK/diff.out" 2> "$WORK/diff.err"
  local got=$?
  [ "$got" -eq "$want" ] || { cat "$WORK/diff.out" "$WORK/diff.err"; fail "kbench diff $*: exit $got, expected $want"; }
}
# schema_check SCHEMA FILE: the document validates against the JSON Schema.
schema_check() {
  python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
    "$1" "$2" || fail "$2 does not validate against $1"
}

# --- One real result, retimed: every BASE/NEW pair below shares its random draws (same --seed),
# so NEW's samples are exactly BASE's times the scale.
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 5 --seed 11 \
  --format json --output "$WORK/small.json" > /dev/null 2>&1 || fail "kbench run small spec"
$SYNTH retime "$WORK/small.json" "$WORK/base.json" --scale 1 --jitter 0.01 --seed 1 --count 30
$SYNTH retime "$WORK/small.json" "$WORK/equal.json" --scale 1 --jitter 0.01 --seed 2 --count 30
$SYNTH retime "$WORK/small.json" "$WORK/slower5.json" --scale 1.05 --jitter 0.01 --seed 1 --count 30
$SYNTH retime "$WORK/small.json" "$WORK/faster30.json" --scale 0.7 --jitter 0.01 --seed 1 --count 30
$SYNTH retime "$WORK/small.json" "$WORK/noisy-base.json" --scale 1 --jitter 0.6 --seed 3 --count 10
$SYNTH retime "$WORK/small.json" "$WORK/noisy.json" --scale 1.1 --jitter 0.6 --seed 3 --count 10

verdict_is() {  # verdict_is BASE NEW VERDICT EXIT [diff flags...]
  local base="$1" new="$2" verdict="$3" code="$4"; shift 4
  diff_expect "$code" "$WORK/$base" "$WORK/$new" --format json --output "$WORK/verdict.json" "$@"
  json_check "$WORK/verdict.json" "doc['pairs'][0]['verdict'] == '$verdict' and doc['exit_code'] == $code"
  grep -q "$verdict" "$WORK/diff.out" || fail "the text summary on stdout lacks '$verdict'"
}
verdict_is base.json equal.json same 0
verdict_is base.json slower5.json slower 1
verdict_is base.json slower5.json same 0 --threshold 10%
verdict_is base.json faster30.json faster 0
verdict_is noisy-base.json noisy.json unclear 0
json_check "$WORK/verdict.json" 'abs(doc["pairs"][0]["change"] - 0.10) < 1e-9 and doc["pairs"][0]["p_value"] >= 0.05'

# --- A whole suite: the headline suite as a GPU machine would report it (synthetic GPU results added to
# a real run), against itself with one kernel slower, one broken, one removed and one added. The
# tiny --time-budget makes the CPU reference skip every seed workload on any machine.
"$KBENCH" run "$SRC"/workloads/kernelbench/level1/{050,076,077,084}_*.yaml --backends reference --format json --seed 1 --time-budget 0.01 --allow-empty --output "$WORK/seed.json" > /dev/null 2>&1 \
  || fail "kbench run headline suite"
$SYNTH add-gpu-results "$WORK/seed.json" "$WORK/suite.json"
python3 - "$WORK/suite.json" "$WORK/suite-new.json" <<'PY' || fail "editing the suite"
import json, sys
doc = json.load(open(sys.argv[1]))
results = doc["results"]
ok = [r for r in results if r["status"] == "ok" and r["backend"] in ("cudnn", "cuda")]  # the synthetic GPU results
for s in range(len(ok[0]["timing"]["samples_s"])):  # first ok result: 40% slower
    ok[0]["timing"]["samples_s"][s] *= 1.4
ok[1].update(status="failed", reason="an illegal memory access was encountered", timing=None)  # broke
results.remove(ok[2])                                                                             # removed
added = json.loads(json.dumps(ok[3])); added["backend"] = "cuda-new"; results.append(added)        # added
doc["device"] = "NVIDIA H200 (device 0, GPU-1234)"
doc["peaks"]["name"] = "NVIDIA H200"
json.dump(doc, open(sys.argv[2], "w"))
PY
diff_expect 1 "$WORK/suite.json" "$WORK/suite-new.json" --format json --output "$WORK/suite-diff.json"
json_check "$WORK/suite-diff.json" 'doc["summary"]["slower"] == 1 and doc["summary"]["broke"] == 1'
json_check "$WORK/suite-diff.json" 'doc["summary"]["same"] == 9 and doc["summary"]["still_broken"] == 1'
json_check "$WORK/suite-diff.json" 'doc["summary"]["not_compared"] == 5'  # 4 skipped + 1 unsupported
json_check "$WORK/suite-diff.json" 'len(doc["only_in_base"]) == 1 and doc["only_in_new"][0]["backend"] == "cuda-new"'
json_check "$WORK/suite-diff.json" 'doc["device_mismatch"] == {"device_differs": True, "model_differs": True}'
json_check "$WORK/suite-diff.json" 'doc["new"]["peaks_name"] == "NVIDIA H200"'
grep -q "DEVICE MISMATCH" "$WORK/diff.out" || fail "text output does not flag the device mismatch"
grep -q "only in BASE" "$WORK/diff.out" || fail "text output does not list the removed result"
grep -q "NEW failed (an illegal memory access" "$WORK/diff.out" || fail "text output does not show the broken result"
diff_expect 1 "$WORK/suite.json" "$WORK/suite-new.json" --format markdown
grep -q '^| kernelbench-l1-' "$WORK/diff.out" || fail "markdown table missing"
grep -q '\*\*slower\*\*' "$WORK/diff.out" || fail "markdown does not mark the slower result"
diff_expect 0 "$WORK/suite.json" "$WORK/suite.json"

# --- Unusable input: exit 2 and a message that names the file.
diff_expect 2 "$WORK/base.json" "$WORK/missing.json"
grep -q "missing.json" "$WORK/diff.err" || fail "missing file not named"
echo '{"schema": "kbench.results/1", "results": [' > "$WORK/truncated.json"
diff_expect 2 "$WORK/base.json" "$WORK/truncated.json"
grep -q "truncated.json: not JSON" "$WORK/diff.err" || fail "broken JSON not reported"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["schema"]="kbench.results/9"; json.dump(d, open(sys.argv[2],"w"))' \
  "$WORK/base.json" "$WORK/v9.json"
diff_expect 2 "$WORK/base.json" "$WORK/v9.json"
grep -q "kbench.results/9" "$WORK/diff.err" || fail "unknown schema not named"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"][0]["workload"]="other"; json.dump(d, open(sys.argv[2],"w"))' \
  "$WORK/base.json" "$WORK/other.json"
diff_expect 2 "$WORK/base.json" "$WORK/other.json"
grep -q "nothing to compare" "$WORK/diff.err" || fail "no-match not explained"
diff_expect 2 "$WORK/base.json" "$WORK/equal.json" --threshold five

# --- Formats for other tools, from a run and from a saved file.
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 4 --seed 5 --format gbench \
  --output "$WORK/run.gbench.json" > /dev/null 2>&1 || fail "kbench run --format gbench"
schema_check "$FORMATS/gbench-output.schema.json" "$WORK/run.gbench.json"
json_check "$WORK/run.gbench.json" 'len([b for b in doc["benchmarks"] if b["run_type"] == "iteration"]) == 4'
json_check "$WORK/run.gbench.json" '[b["aggregate_name"] for b in doc["benchmarks"] if b["run_type"] == "aggregate"] == ["mean", "median", "stddev", "cv"]'
"$KBENCH" report "$WORK/suite.json" --format gbench --output "$WORK/suite.gbench.json" || fail "report --format gbench"
schema_check "$FORMATS/gbench-output.schema.json" "$WORK/suite.gbench.json"
json_check "$WORK/suite.gbench.json" 'sum(1 for b in doc["benchmarks"] if b.get("error_occurred")) == 1'
for alias in bencher github-action-benchmark; do
  "$KBENCH" report "$WORK/suite.json" --format "$alias" > "$WORK/suite.$alias.json" || fail "report --format $alias"
  schema_check "$FORMATS/github-action-benchmark.schema.json" "$WORK/suite.$alias.json"
  json_check "$WORK/suite.$alias.json" 'len(doc) == 12 and all(e["unit"] == "us" and e["value"] > 0 for e in doc)'
done
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 3 --seed 5 \
  --format github-action-benchmark > "$WORK/run.bencher.json" 2> /dev/null || fail "kbench run --format github-action-benchmark"
schema_check "$FORMATS/github-action-benchmark.schema.json" "$WORK/run.bencher.json"

# --- kbench report: text by default, --html writes a page, several files need --html.
"$KBENCH" report "$WORK/suite.json" > "$WORK/report.txt" || fail "report renders text"
grep -q "kernelbench-l1-076" "$WORK/report.txt" || fail "the text report lacks the workloads"
"$KBENCH" report "$WORK/suite.json" "$WORK/small.json" --html "$WORK/page.html" 2> /dev/null || fail "report --html"
grep -q 'id="kbench-selfcheck"' "$WORK/page.html" || fail "HTML page lacks the self-check"
"$KBENCH" report "$WORK/suite.json" "$WORK/small.json" > /dev/null 2>&1
[ $? -eq 2 ] || fail "several files without --html should exit 2"
"$KBENCH" report "$WORK/missing.json" --html "$WORK/x.html" > /dev/null 2>&1
[ $? -eq 2 ] || fail "report of a missing file should exit 2"

# --- kbench report --format json of a results file writes that file back, byte for byte: every key
# read and written by the same pair, a backend's properties in their order (the golden report's
# workspace_bytes before algo_search).
"$KBENCH" report "$SRC/tests/data/golden/report.json" --format json --output "$WORK/golden-again.json" \
  || fail "report --format json of the golden report"
cmp -s "$SRC/tests/data/golden/report.json" "$WORK/golden-again.json" \
  || { diff "$SRC/tests/data/golden/report.json" "$WORK/golden-again.json" | head -20; fail "the golden report, written back, differs"; }
echo "ok"
