# The module backend end to end on the CPU with Debian's python3-torch: KernelBench-style files beside the
# reference. A problem file's Model and a solution's ModelNew run with kbench's weights and are verified
# in full; a wrong solution comes out wrong and untimed; a file whose weight shape matches another
# workload's, or none, or two parameters, a forward with two inputs, and a file that raises on import,
# each fail with the reason; a missing file is the command line's error. Skips (77) without torch.
source "$(dirname "$0")/lib.sh"
require_torch
spec="$SRC/tests/data/cli/module_small.yaml"
modules="$SRC/tests/data/cli/modules"
backends="reference"
for file in conv2d_problem conv_transpose3d_solution conv2d_wrong two_convs two_inputs raises_on_import; do
  backends="$backends,module:$modules/$file.py"
done

KBENCH_PYTHON=$PY "$KBENCH" run "$spec" --backends "$backends" --iterations 3 --seed 5 --format json \
  --output "$WORK/out.json" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
echo "kbench run exited $?" >"$WORK/status.txt"
python3 - "$WORK/out.json" "$modules" <<'PY' || { cat "$WORK/status.txt" "$WORK/stderr.txt"; fail "the module results are not as expected"; }
import json, sys
doc = json.load(open(sys.argv[1]))
modules = sys.argv[2]
def result(workload, file):
    found = [r for r in doc["results"] if r["workload"] == workload and r["backend"] == "module"
             and r.get("variant") == f"{modules}/{file}.py"]
    assert len(found) == 1, (workload, file, len(found))
    return found[0]
def ok(r, implementation):
    assert r["status"] == "ok", (r["status"], r.get("reason"))
    v = r["verification"]
    assert v["passed"] and v["full"] and v["inputs_unchanged"] and v["mismatches"] == 0, v
    assert v["fresh_inputs"]["passed"], v["fresh_inputs"]
    assert len(r["timing"]["samples_s"]) == 3
    assert r["implementation"] == implementation, r["implementation"]
def failed(r, *words):
    assert r["status"] == "failed", (r["status"], r.get("reason"))
    for word in words:
        assert word in r["reason"], (word, r["reason"])

problem = result("module-conv2d", "conv2d_problem")
ok(problem, f"Model from {modules}/conv2d_problem.py")
props = problem["properties"]
assert props["torch.module.weight"] == "conv2d.weight" and props["torch.module.bias"] == "none", props
assert props["torch.module.class"] == "Model" and props["module"] == f"{modules}/conv2d_problem.py", props
solution = result("module-conv-transpose3d", "conv_transpose3d_solution")
ok(solution, f"ModelNew from {modules}/conv_transpose3d_solution.py")
assert solution["properties"]["torch.module.bias"] == "bias", solution["properties"]

wrong = result("module-conv2d", "conv2d_wrong")
assert wrong["status"] == "wrong" and not wrong["verification"]["passed"], wrong["status"]
assert not (wrong.get("timing") or {}).get("samples_s"), wrong.get("timing")

failed(result("module-conv-transpose3d", "conv2d_problem"), "weight shape [3, 5, 3, 3, 3]", "conv2d.weight [6, 4, 3, 3]")
failed(result("module-conv2d-bias", "conv2d_problem"), "none of the bias shape [6]", "workload has a bias")
failed(result("module-conv2d", "conv_transpose3d_solution"), "weight shape [6, 4, 3, 3]")
failed(result("module-conv2d", "two_convs"), "several (first.weight, third.weight)")
failed(result("module-conv2d", "two_inputs"), "takes 2 inputs (x, y)")
failed(result("module-conv2d", "raises_on_import"), "RuntimeError", "this module refuses to load")
for w in ("module-conv2d", "module-conv2d-bias", "module-conv-transpose3d"):
    ref = [r for r in doc["results"] if r["workload"] == w and r["backend"] == "reference"]
    assert len(ref) == 1 and ref[0]["status"] == "ok", w
assert any(n.startswith("module backend: torch") for n in doc["notes"]), doc["notes"]
PY

# A backward pass is torch's, not the module's: unsupported with the reason.
cat >"$WORK/backward.yaml" <<YAML
name: module-conv2d-backward
op: conv
input: [2, 4, 17, 19]
out_channels: 6
kernel: 3
pass: backward_data
YAML
KBENCH_PYTHON=$PY "$KBENCH" run "$WORK/backward.yaml" --backends "module:$modules/conv2d_problem.py" --iterations 2 \
  --format json --output "$WORK/backward.json" >/dev/null 2>&1
status=$?
[ $status -eq 4 ] || fail "a backward pass: exit $status, expected 4 (unsupported alone: nothing measured)"
json_check "$WORK/backward.json" 'doc["results"][0]["status"] == "unsupported" and "backward_data" in doc["results"][0]["reason"]'

# A file that is not there: the command line's error, before anything runs; no file at all: not planned.
"$KBENCH" run "$spec" --backends "reference,module:$WORK/missing.py" >"$WORK/missing.txt" 2>&1
[ $? -eq 2 ] || { cat "$WORK/missing.txt"; fail "a missing module file must exit 2"; }
grep -q -- "--backends: module:$WORK/missing.py: no such file" "$WORK/missing.txt" || { cat "$WORK/missing.txt"; fail "missing file not named"; }
"$KBENCH" plan "$spec" --backends module:all >"$WORK/all.txt" 2>&1 || fail "plan module:all: exit $?"
grep -q "module fp32: not planned: module needs a file" "$WORK/all.txt" || { cat "$WORK/all.txt"; fail "module:all must ask for a file"; }
echo "ok"
