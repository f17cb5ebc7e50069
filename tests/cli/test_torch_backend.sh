# The torch backend end to end on the CPU with Debian's python3-torch: every kind of convolution
# torch.nn.functional has, beside the reference, verified in full and timed; the Python and torch
# recorded; torch.compile unsupported where torch has none; unsupported padding named; an interpreter
# that is missing, has no torch or a torch that fails to import makes the backend unavailable with the
# reason (Python's own exception text for the last); and a run without
# --backends leaves torch out. Skips (77) where /usr/bin/python3 cannot import torch.
source "$(dirname "$0")/lib.sh"
require_torch
spec="$SRC/tests/data/cli/torch_small.yaml"

KBENCH_PYTHON=$PY "$KBENCH" run "$spec" --backends torch,reference,torch:compile --iterations 3 --seed 11 \
  --format json --output "$WORK/out.json" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
status=$?
[ $status -eq 0 ] || { cat "$WORK/stderr.txt" "$WORK/stdout.txt"; fail "kbench run exited $status"; }
python3 - "$WORK/out.json" "$PY" <<'PY' || fail "the torch results are not as expected"
import json, sys
doc = json.load(open(sys.argv[1]))
python = sys.argv[2]
results = doc["results"]
def result(workload, backend, variant=""):
    found = [r for r in results
             if r["workload"] == workload and r["backend"] == backend and (r.get("variant") or "") == variant]
    assert len(found) == 1, (workload, backend, variant, len(found))
    return found[0]
ok_workloads = [w["name"] for w in doc["workloads"] if "asymmetric" not in w["name"]]
assert len(ok_workloads) == 6, ok_workloads
for name in ok_workloads:
    r = result(name, "torch")
    assert r["status"] == "ok", (name, r["status"], r.get("reason"))
    v = r["verification"]
    assert v["passed"] and v["full"] and v["inputs_unchanged"], (name, v)
    assert v["mismatches"] == 0 and v["checked"] > 0, (name, v)
    assert v["fresh_inputs"]["passed"], (name, v["fresh_inputs"])
    assert len(r["timing"]["samples_s"]) == 3, name
    props = r["properties"]
    assert props["python"].startswith(python), props
    assert props["torch_version"] and props["torch_mode"] == "eager", props
    assert props["torch.device"] == "cpu" and props["torch.cudnn.allow_tf32"] == "False", props
    assert r["implementation"].startswith("torch.nn.functional.conv"), r["implementation"]
    assert result(name, "reference")["status"] == "ok", name
    compiled = result(name, "torch", "compile")
    if props["torch_version"].split(".")[0] in ("0", "1"):
        assert compiled["status"] == "unsupported" and "torch.compile" in compiled["reason"], compiled
    else:
        assert compiled["status"] == "ok", compiled
assert result("torch-conv1d", "torch")["implementation"] == "torch.nn.functional.conv1d"
assert result("torch-conv-transpose3d", "torch")["implementation"] == "torch.nn.functional.conv_transpose3d"
asym = result("torch-conv2d-asymmetric-padding", "torch")
assert asym["status"] == "unsupported" and "padding differs" in asym["reason"], asym
assert result("torch-conv2d-asymmetric-padding", "reference")["status"] == "ok"
assert any("torch backend: torch" in n and python in n for n in doc["notes"]), doc["notes"]
PY
grep -q "torch-conv3d" "$WORK/stdout.txt" || fail "text table on stdout lacks the workloads"

# --python wins over KBENCH_PYTHON; a program that does not exist makes torch unavailable, naming it.
small="$SRC/tests/data/cli/small_conv2d.yaml"
KBENCH_PYTHON=/nonexistent/kbench/python3 "$KBENCH" run "$small" --backends torch --python "$PY" --iterations 2 \
  --format json --output "$WORK/flag.json" >/dev/null 2>&1 || fail "--python $PY: exit $?"
json_check "$WORK/flag.json" 'doc["results"][0]["status"] == "ok"'
"$KBENCH" run "$small" --backends torch,reference --python /nonexistent/kbench/python3 --iterations 2 \
  --format json --output "$WORK/missing.json" >/dev/null 2>&1 || fail "a missing python: exit $? (unavailable is no failure)"
json_check "$WORK/missing.json" 'doc["results"][0]["backend"] == "torch" and doc["results"][0]["status"] == "unavailable"'
json_check "$WORK/missing.json" '"/nonexistent/kbench/python3" in doc["results"][0]["reason"] and "--python" in doc["results"][0]["reason"]'
json_check "$WORK/missing.json" 'doc["results"][1]["status"] == "ok"'

# A Python without torch on its path (site-packages off): unavailable, saying torch is missing.
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >"$WORK/python-without-torch"
chmod +x "$WORK/python-without-torch"
KBENCH_PYTHON="$WORK/python-without-torch" "$KBENCH" run "$small" --backends torch --iterations 2 --format json \
  --output "$WORK/notorch.json" >/dev/null 2>&1
status=$?
[ $status -eq 4 ] || fail "python without torch: exit $status, expected 4 (nothing measured)"
json_check "$WORK/notorch.json" 'doc["results"][0]["status"] == "unavailable" and "no torch" in doc["results"][0]["reason"]'

# A torch whose import raises: unavailable, with Python's exception type and text in the reason.
mkdir -p "$WORK/broken/torch"
echo 'raise ImportError("kbench test: this torch is broken")' >"$WORK/broken/torch/__init__.py"
PYTHONPATH="$WORK/broken" KBENCH_PYTHON=$PY "$KBENCH" run "$small" --backends torch --iterations 2 --format json \
  --output "$WORK/broken.json" >/dev/null 2>&1
status=$?
[ $status -eq 4 ] || fail "a broken torch: exit $status, expected 4 (nothing measured)"
json_check "$WORK/broken.json" 'doc["results"][0]["status"] == "unavailable"'
json_check "$WORK/broken.json" '"ImportError: kbench test: this torch is broken" in doc["results"][0]["reason"]'

# `list` says where torch comes from; a run without --backends does not start it.
KBENCH_PYTHON=$PY "$KBENCH" list "$small" >"$WORK/list.txt" 2>&1 || fail "kbench list: exit $?"
grep -Eq '^ +torch +available' "$WORK/list.txt" || { cat "$WORK/list.txt"; fail "list does not show torch available"; }
KBENCH_PYTHON=$PY "$KBENCH" run "$small" --iterations 2 --format json --output "$WORK/default.json" >/dev/null 2>&1 ||
  fail "run without --backends: exit $?"
json_check "$WORK/default.json" 'all(r["backend"] != "torch" for r in doc["results"])'
echo "ok"
