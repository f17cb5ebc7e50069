# scripts/merge-results.py: two real kbench documents (one workload each, the same --seed) become
# one that kbench itself reads back, with both workloads and every result; parts that disagree on
# a setting, or that are not results, are refused with exit 2.
source "$(dirname "$0")/lib.sh"
MERGE="python3 $SRC/scripts/merge-results.py"

for spec in conv1d conv_transpose1d; do
  "$KBENCH" run "$SRC/workloads/examples/$spec.yaml" --seed 7 --iterations 3 --warmups 1 --format json \
    --output "$WORK/$spec.json" >/dev/null 2>&1 || fail "kbench run $spec"
done
$MERGE "$WORK/conv1d.json" "$WORK/conv_transpose1d.json" --output "$WORK/merged.json" || fail "merge refused"
json_check "$WORK/merged.json" 'len(doc["workloads"]) == 2 and len(doc["results"]) == 2'
json_check "$WORK/merged.json" '[w["name"] for w in doc["workloads"]] == [r["workload"] for r in doc["results"]]'
"$KBENCH" report "$WORK/merged.json" --format markdown >"$WORK/merged.md" || fail "kbench cannot read the merged document"
grep -q "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["workloads"][1]["name"])' "$WORK/merged.json")" \
  "$WORK/merged.md" || fail "the second part's workload is missing from the report"

"$KBENCH" run "$SRC/workloads/examples/conv1d.yaml" --seed 8 --iterations 3 --warmups 1 --format json \
  --output "$WORK/other_seed.json" >/dev/null 2>&1 || fail "kbench run (seed 8)"
$MERGE "$WORK/conv1d.json" "$WORK/other_seed.json" --output "$WORK/bad.json" 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "parts with different seeds must be refused"
grep -q "setting seed" "$WORK/err.txt" || fail "the refusal must name the setting"
echo '{"not": "results"}' >"$WORK/junk.json"
$MERGE "$WORK/conv1d.json" "$WORK/junk.json" --output "$WORK/bad.json" 2>/dev/null
[[ $? == 2 ]] || fail "a part that is not a results document must be refused"
echo "PASS"
