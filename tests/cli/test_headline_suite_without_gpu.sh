# The headline suite on a machine without a GPU reports all four workloads with their analysis. Whether the CPU
# reference fits a seed into --time-budget depends on the CPU (and on its load), so --allow-empty: a run
# in which every seed is skipped is expected here, not a failure (without it such a run is exit 4).
source "$(dirname "$0")/lib.sh"
if "$KBENCH" info | grep -q "^device 0:"; then echo "a GPU is present: this test is for machines without one"; exit 0; fi
# The four headline problems by name: the directory holds the whole KernelBench suite (test_kernelbench_suite_without_gpu.sh).
"$KBENCH" run "$SRC"/workloads/kernelbench/level1/{050,076,077,084}_*.yaml --format json --seed 1 --allow-empty > "$WORK/out.json" 2> "$WORK/err.txt"
status=$?
[ $status -eq 0 ] || { cat "$WORK/err.txt"; fail "exit $status"; }
grep -qiE "no CUDA|no NVIDIA driver" "$WORK/err.txt" || fail "does not say that no CUDA device was found"
json_check "$WORK/out.json" 'doc["schema"] == "kbench.results/1" and len(doc["workloads"]) == 4'
json_check "$WORK/out.json" 'all(w["flops"] > 0 and w["floor"]["fp32"]["floor_s"] > 0 for w in doc["workloads"])'
json_check "$WORK/out.json" 'doc["peaks"]["key"] == "h100-sxm" and doc["floors_for_target"] == True'
# Each workload either ran on the reference or says why it was skipped: nothing is shrunk silently.
json_check "$WORK/out.json" 'all(r["status"] in ("ok", "skipped") for r in doc["results"])'
json_check "$WORK/out.json" 'all(r["reason"] for r in doc["results"] if r["status"] == "skipped")'
json_check "$WORK/out.json" 'sorted(w["output_shape"] for w in doc["workloads"]) == sorted([[64,128,174758],[256,96,55,55],[64,128,254,510],[16,64,33,65,65]])'
echo "ok"
