# A small spec runs on the reference backend, verifies, and produces a valid kbench.results/1 document.
source "$(dirname "$0")/lib.sh"
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 5 --seed 7 \
  --format json --output "$WORK/out.json" > "$WORK/stdout.txt" 2> "$WORK/stderr.txt"
status=$?
[ $status -eq 0 ] || { cat "$WORK/stderr.txt"; fail "exit $status"; }
json_check "$WORK/out.json" 'doc["schema"] == "kbench.results/1"'
json_check "$WORK/out.json" 'len(doc["results"]) == 1 and doc["results"][0]["status"] == "ok"'
json_check "$WORK/out.json" 'doc["results"][0]["verification"]["comparison"]["mismatches"] == 0 if "comparison" in doc["results"][0]["verification"] else doc["results"][0]["verification"]["passed"]'
json_check "$WORK/out.json" 'len(doc["results"][0]["timing"]["samples_s"]) == 5'
json_check "$WORK/out.json" 'doc["settings"]["seed"] == 7 and doc["interrupted"] == False'
json_check "$WORK/out.json" 'doc["workloads"][0]["output_shape"] == [2, 6, 9, 20]'
grep -q "cli-small-conv2d" "$WORK/stdout.txt" || fail "text table on stdout lacks the workload"
echo "ok"
