# A spec with `sweep:` runs as one workload per point, named after its values; the results document
# records each point's sweep, and the HTML report draws the sweep as a line chart. A sweep value the
# spec refuses exits 2 naming the value's place.
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/sweep_conv2d.yaml"
"$KBENCH" list "$SPEC" > "$WORK/list.txt" 2>&1 || { cat "$WORK/list.txt"; fail "kbench list of a sweep"; }
for b in 1 2 4; do grep -q "sweep-conv2d.batch-$b" "$WORK/list.txt" || fail "list lacks sweep-conv2d.batch-$b"; done

"$KBENCH" run "$SPEC" --backends reference --iterations 3 --seed 3 --format json --output "$WORK/run.json" \
  > /dev/null 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "kbench run of a sweep"; }
json_check "$WORK/run.json" '[w["name"] for w in doc["workloads"]] == ["sweep-conv2d.batch-1", "sweep-conv2d.batch-2", "sweep-conv2d.batch-4"]'
json_check "$WORK/run.json" '[w["input_shape"][0] for w in doc["workloads"]] == [1, 2, 4]'
json_check "$WORK/run.json" 'all(w["sweep"] == {"origin": "sweep-conv2d", "axes": [{"key": "batch", "value": str(w["input_shape"][0])}]} for w in doc["workloads"])'
json_check "$WORK/run.json" 'all(r["status"] == "ok" and r["timing"] for r in doc["results"])'

# The CPU's results are set against no GPU floor (the sweep chart has a ×floor panel): not drawn there.
"$KBENCH" report "$WORK/run.json" --html "$WORK/cpu.html" 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "kbench report --html"; }
[ "$(grep -o 'class="sweep-point"' "$WORK/cpu.html" | wc -l)" -eq 0 ] || fail "CPU results drawn on the sweep's ×floor chart"
# The same numbers as a GPU's results: one sweep point each.
python3 - "$WORK/run.json" "$WORK/gpu.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    r["ran_on"] = "gpu"
json.dump(doc, open(sys.argv[2], "w"))
PY
"$KBENCH" report "$WORK/gpu.json" --html "$WORK/report.html" 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "kbench report --html"; }
grep -q '<svg class="chart sweep"' "$WORK/report.html" || fail "no sweep chart in the HTML report"
[ "$(grep -o 'class="sweep-point"' "$WORK/report.html" | wc -l)" -eq 3 ] || fail "expected 3 sweep points in the chart"

sed 's/batch: \[1, 2, 4\]/batch: [1, 0]/' "$SPEC" > "$WORK/bad.yaml"
"$KBENCH" run "$WORK/bad.yaml" --backends reference > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "a refused sweep value should exit 2"
grep -q "bad.yaml:11:14: sweep.batch\[1\]: got 0; expected an integer from 1" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "error does not name the value's place"; }
echo "ok"
