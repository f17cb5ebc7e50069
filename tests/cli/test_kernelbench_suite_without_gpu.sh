# The whole KernelBench level-1 convolution suite, analysed on a machine without a GPU: 36 workloads
# (35 problems, #86 as two layers) with shapes, FLOPs, floors and their published records. The tiny
# --time-budget makes the CPU reference skip every one at once, so this stays quick on any machine.
# The records carry their math (tf32), and the text report says they are not the results' arithmetic.
source "$(dirname "$0")/lib.sh"
# --allow-empty: a run that measures nothing would otherwise exit 4 (docs/exit-codes.md).
"$KBENCH" run "$SRC/workloads/kernelbench/level1" --backends reference --time-budget 0.01 --allow-empty --format json --seed 1 \
  > "$WORK/out.json" 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "exit $?"; }
json_check "$WORK/out.json" 'len(doc["workloads"]) == 36 and len(doc["results"]) == 36'
json_check "$WORK/out.json" 'all(w["flops"] > 0 and w["floor"]["fp32"]["floor_s"] > 0 for w in doc["workloads"])'
json_check "$WORK/out.json" 'all(r["status"] in ("ok", "skipped") and (r["status"] == "ok" or r["reason"]) for r in doc["results"])'
json_check "$WORK/out.json" 'all(len(w["records"]) == 4 for w in doc["workloads"])'
# KernelBench's records ran with TF32 allowed (PyTorch's default): each says so, and a report of results at
# fp32 says that they are other arithmetic.
json_check "$WORK/out.json" 'all(r["math"] == "tf32" for w in doc["workloads"] for r in w["records"])'
"$KBENCH" report "$WORK/out.json" > "$WORK/report.txt" 2>&1 || fail "kbench report of the suite"
[ "$(grep -c 'the records ran under math tf32 and this run.s results under fp32' "$WORK/report.txt")" -eq 36 ] ||
  fail "the text report does not note the records' math beside fp32 results for each workload"
json_check "$WORK/out.json" '[w["name"][15:18] for w in doc["workloads"]] == ["050"] + [f"{i:03d}" for i in range(54, 88) for _ in range(2 if i == 86 else 1)]'
json_check "$WORK/out.json" '{w["name"]: w["output_shape"] for w in doc["workloads"]}["kernelbench-l1-072-conv-transpose3d-strided-padded-grouped"] == [8, 32, 24, 48, 96]'
"$KBENCH" list "$SRC/workloads/kernelbench/level1" > "$WORK/list.txt" 2>&1 || fail "kbench list of the suite"
[ "$(grep -c 'kernelbench-l1-' "$WORK/list.txt")" -ge 36 ] || fail "kbench list shows fewer than 36 workloads"
echo "ok"
