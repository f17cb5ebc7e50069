# `kbench plan`: what each backend would run for the seeds, without running anything; forced
# variants; bad input exits 2.
source "$(dirname "$0")/lib.sh"
# The four headline problems by name (the directory holds the whole KernelBench suite; the counts below are the seeds').
SEEDS=("$SRC"/workloads/kernelbench/level1/{050,076,077,084}_*.yaml)

"$KBENCH" plan "${SEEDS[@]}" --math fp32,tf32 --format json > "$WORK/plan.json" 2> "$WORK/err.txt" ||
  { cat "$WORK/err.txt"; fail "plan of the seeds exits non-zero"; }
json_check "$WORK/plan.json" 'doc["schema"] == "kbench.plan/1"'
json_check "$WORK/plan.json" 'doc["device"]["present"] or doc["device"]["name"] == "NVIDIA H100 SXM5 80GB"'
json_check "$WORK/plan.json" 'len({p["workload"] for p in doc["plans"]}) == 4'
json_check "$WORK/plan.json" 'all(p["planned"] and p["variants"][0]["implementation"] == "cpu_direct_fp64"
                                  for p in doc["plans"] if p["backend"] == "reference")'

(cd "$SRC" && "$KBENCH" list) >"$WORK/backends.txt" 2>/dev/null || fail "kbench list exited $?"  # not piped: see test_plan_golden.sh
if grep -q "^  cuda " "$WORK/backends.txt"; then
  # The kernel that runs is the first variant, named by its family; the rest follow; problem 77's is
  # the phase GEMM of its math mode.
  json_check "$WORK/plan.json" 'all(p["planned"] and p["variants"][0]["runs"] and
                                    p["variants"][0]["implementation"].startswith(p["variants"][0]["variant"].split("/")[0])
                                    for p in doc["plans"] if p["backend"] == "cuda")'
  json_check "$WORK/plan.json" '[p["variants"][0]["implementation"] for p in doc["plans"]
                                 if p["backend"] == "cuda" and "077" in p["workload"]] ==
                                ["transposed_phase_3xtf32/channel_blocks/64x128", "transposed_phase_tf32/channel_blocks/64x128"]'
  json_check "$WORK/plan.json" 'all(any(v["variant"] == "direct" for v in p["variants"])
                                    for p in doc["plans"] if p["backend"] == "cuda")'
  # cuDNN's heuristics need a device: without one, cudnn is not planned, saying why.
  json_check "$WORK/plan.json" 'doc["device"]["present"] or all(not p["planned"] and "none is usable here" in p["reason"]
                                                               for p in doc["plans"] if p["backend"] == "cudnn")'

  # The kernels docs/perf-notes.md predicts for the first GPU session are what kbench would run:
  # "(default)" rows the kernel that runs, "(variant)" rows one of the others.
  python3 - "$SRC/docs/perf-notes.md" "$WORK/plan.json" <<'PY' || fail "perf-notes predictions name kernels the plan does not run"
import json, re, sys
notes = open(sys.argv[1]).read()
table = notes[notes.index("### Predictions for the first GPU session"):]
plans = json.load(open(sys.argv[2]))["plans"]
rows = re.findall(r"^\| (\d+) [^|]*\| (fp32|tf32) \| ([^|]+?) \|", table, re.M)
assert len(rows) >= 8, f"only {len(rows)} prediction rows found"
for seed, math, kernel in rows:
    plan = next(p for p in plans if p["backend"] == "cuda" and f"-{int(seed):03d}-" in p["workload"] and p["math"] == math)
    names = [v["implementation"] for v in plan["variants"]]
    if kernel.startswith("(variant) "):
        ok = kernel[len("(variant) "):] in names
    else:
        ok = names[0] == kernel
    if not ok:
        print(f"seed {seed} {math}: perf-notes names {kernel}; the plan runs {names[0]}, then {names[1:]}", file=sys.stderr)
        sys.exit(1)
PY

  # A forced variant is the one planned; one outside its envelope is not planned, with why.
  "$KBENCH" plan "$SRC/workloads/kernelbench/level1/050_conv2d_alexnet_first_layer.yaml" --math tf32 \
    --backends cuda:implicit_gemm_tf32/k_table,cuda:depthwise2d --format json > "$WORK/forced.json" ||
    fail "plan of forced variants exits non-zero"
  json_check "$WORK/forced.json" '[len(p["variants"]) for p in doc["plans"]] == [1, 0]'
  json_check "$WORK/forced.json" 'doc["plans"][0]["variants"][0]["implementation"] == "implicit_gemm_tf32/k_table/96x128"'
  json_check "$WORK/forced.json" '"groups == in_channels" in doc["plans"][1]["reason"]'

  # Planned for a GPU not present: its architecture rules the Hopper-only variants out.
  if python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["device"]["present"])' "$WORK/plan.json"; then
    "$KBENCH" plan "${SEEDS[@]}" --backends cuda --math tf32 --target a100-40gb > "$WORK/a100.txt" ||
      fail "plan for --target a100-40gb exits non-zero"
    grep -q "^Plans for NVIDIA A100 40GB (compute capability 8.0, 108 SMs; --target a100-40gb" "$WORK/a100.txt" ||
      { head -3 "$WORK/a100.txt"; fail "the heading names the target"; }
    grep -q "implicit_gemm_tf32/wgmma  *wgmma needs a compute capability 9.0 device.*A100 40GB is 8.0" "$WORK/a100.txt" ||
      fail "wgmma is not ruled out on an A100"
  fi
fi

"$KBENCH" plan "${SEEDS[@]}" --backends reference > "$WORK/plan.txt" || fail "text plan exits non-zero"
grep -q "^kernelbench-l1-084-conv2d-depthwise  conv2d 64x128x256x512" "$WORK/plan.txt" || fail "text: a workload heading"
grep -q "^  reference fp32: cpu_direct_fp64 (reference)" "$WORK/plan.txt" || fail "text: the reference's plan"

# Bad input: exit 2, naming what is wrong.
"$KBENCH" plan "${SEEDS[@]}" --backends no-such-backend > /dev/null 2> "$WORK/err1.txt"
[ $? -eq 2 ] || fail "unknown backend: expected exit 2"
grep -q "unknown backend 'no-such-backend'" "$WORK/err1.txt" || fail "unknown backend message"
"$KBENCH" plan "${SEEDS[@]}" --target no-such-gpu > /dev/null 2> "$WORK/err2.txt"
[ $? -eq 2 ] || fail "unknown --target: expected exit 2"
grep -q "no-such-gpu" "$WORK/err2.txt" || fail "unknown --target message"
printf 'name: bad\nop: conv\ninput: [1, 4, 8, 8]\nout_channels: 4\nkernel: 3\ndilaton: 2\n' > "$WORK/bad.yaml"
"$KBENCH" plan "$WORK/bad.yaml" > /dev/null 2> "$WORK/err3.txt"
[ $? -eq 2 ] || fail "bad spec: expected exit 2"
grep -q "bad.yaml:6:1" "$WORK/err3.txt" || { cat "$WORK/err3.txt"; fail "bad spec: no file:line:col"; }
"$KBENCH" plan "${SEEDS[@]}" --format yaml > /dev/null 2>&1
[ $? -eq 2 ] || fail "bad --format: expected exit 2"
echo "ok"
