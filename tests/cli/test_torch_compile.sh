# torch.compile on the CPU with torch 2.x (PyPI's wheel in a venv: scripts/install-torch2.sh; Debian's
# torch 1.13 has none): nine distinct compiled problems in one kbench process, each compiled once, with
# static shapes and no graph break, verified in full; the result records what Dynamo compiled. Dynamo
# caches per code object: without a fresh Dynamo per problem the second recompiles with dynamic shapes
# and the ninth runs eager under a compiled name. Skips (77) without that venv, except in CI (CI=true),
# where it fails: CI installs it.
source "$(dirname "$0")/lib.sh"
PY2="${KBENCH_TORCH2_PYTHON:-${KBENCH_TORCH2_VENV:-$HOME/.cache/kbench/torch2-venv}/bin/python}"
if ! "$PY2" -c "import sys, torch; sys.exit(not hasattr(torch, 'compile'))" >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && fail "no torch 2.x at $PY2 in CI (scripts/install-deps.sh installs it)"
  echo "SKIP: no torch 2.x at $PY2 (bash scripts/install-torch2.sh)"
  exit 77
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
spec="$SRC/tests/data/cli/torch_compile_nine.yaml"

KBENCH_PYTHON=$PY2 "$KBENCH" run "$spec" --backends torch:compile --iterations 2 --seed 9 \
  --format json --output "$WORK/out.json" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
status=$?
[ $status -eq 0 ] || { cat "$WORK/stderr.txt" "$WORK/stdout.txt"; fail "kbench run exited $status"; }
python3 - "$WORK/out.json" <<'PY' || { cat "$WORK/stderr.txt"; fail "torch.compile's results are not as expected"; }
import json, sys
doc = json.load(open(sys.argv[1]))
results = doc["results"]
assert len(results) == 9, [(r["workload"], r["status"]) for r in results]
assert len({r["workload"] for r in results}) == 9
for r in results:
    name = r["workload"]
    assert r["status"] == "ok", (name, r["status"], r.get("reason"))
    assert r["verification"]["passed"] and r["verification"]["full"], (name, r["verification"])
    assert r["implementation"].startswith("torch.compile("), (name, r["implementation"])
    props = r["properties"]
    assert props["torch_version"].split(".")[0] == "2", props["torch_version"]
    compiled = {k: v for k, v in props.items() if k.startswith("torch.compile.")}
    assert compiled.get("torch.compile.frames_compiled") == "1", (name, compiled)
    assert compiled.get("torch.compile.graphs") == "1", (name, compiled)
    assert compiled.get("torch.compile.graph_breaks") == "0", (name, compiled)
    assert compiled.get("torch.compile.dynamic") == "False", (name, compiled)
    assert compiled.get("torch.compile.recompiles") == "0", (name, compiled)
print("nine compiled problems, each compiled once")
PY
echo "ok"
