# The torch and module backends in every dtype and layout on the CPU with Debian's python3-torch: torch
# must see kbench's tensors in the spec's dtype and, for nhwc, channels-last strided (kbench's buffers,
# no copy), or its outputs would not match the reference's. What this asserts is kbench's contract, which
# holds on any CPU; what torch's half-precision kernels do differs by CPU (oneDNN's ISA, ATen's), so:
# - fp32, both layouts, every op and pass: verified in full, on every CPU.
# - fp16/bf16: torch's own kernels decide, and each outcome is reported as what it is. A call torch has no
#   kernel for on this device (torch 1.13 has no fp16 convolution on the CPU) is unsupported, naming
#   torch's message. Any other error torch raises (torch 1.13's bf16 grouped transposed convolution on an
#   AMX CPU: "Given groups=2, weight of size [4, 3, 3, 3], expected input[2, 4, 7, 6] to have 6 channels")
#   is failed with torch's exception, type and message, and the same workload in fp32 is ok (kbench's
#   tensors are right). What runs is verified against the fp32-accumulation bound, so a torch that
#   accumulates in bf16 comes out wrong, never ok; its timing is dropped.
# - Each result records the dtype and strides torch saw. Skips (77) without torch.
source "$(dirname "$0")/lib.sh"
require_torch
spec="$SRC/tests/data/cli/torch_dtypes_layouts.yaml"
module="$SRC/tests/data/cli/modules/conv2d_problem.py"

KBENCH_PYTHON=$PY "$KBENCH" run "$spec" --backends "torch,module:$module" --iterations 2 --seed 3 --format json \
  --output "$WORK/out.json" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
echo "kbench run exited $?" >"$WORK/status.txt"
python3 - "$WORK/out.json" <<'PY' || { cat "$WORK/status.txt" "$WORK/stderr.txt"; fail "the torch results are not as expected"; }
import json, re, sys
doc = json.load(open(sys.argv[1]))
status_of = {(r["workload"], r["backend"]): r["status"] for r in doc["results"]}
workloads = {w["name"]: w["problem"] for w in doc["workloads"]}
torch_dtype = {"fp32": "torch.float32", "fp16": "torch.float16", "bf16": "torch.bfloat16"}
seen = {"fp32": 0, "half_ok": 0, "half_not_run": 0}
for r in doc["results"]:
    name = r["workload"]
    is_module = r["backend"] == "module"
    if is_module and not name.startswith("tdl-module"):
        assert r["status"] in ("failed", "unsupported"), (name, r["status"])
        continue  # another workload's weight shape, or a backward pass: refused as test_module_backend.sh checks
    dtype, layout = r["dtype"], r["layout"]
    assert dtype == workloads[name]["dtype"] and layout == workloads[name]["layout"], (name, dtype, layout)
    status = r["status"]
    assert status in ("ok", "wrong", "unsupported", "failed"), (name, status, r.get("reason"))
    if status == "unsupported":
        assert dtype != "fp32", (name, r.get("reason"))
        assert f"has no {torch_dtype[dtype]} kernel" in r["reason"] and "not implemented for" in r["reason"], r["reason"]
    if status == "failed":
        # torch's own error, said as torch said it, on a half path only; the fp32 twin runs.
        assert dtype != "fp32", (name, r.get("reason"))
        assert re.match(r"torch \S+ raised (RuntimeError|NotImplementedError|ValueError): \S", r["reason"]), r["reason"]
        assert status_of[(re.sub(r"\.dtype-(fp16|bf16)", ".dtype-fp32", name), r["backend"])] == "ok", name
    props = r["properties"]
    assert props["torch.dtype"] == torch_dtype[dtype], (name, props["torch.dtype"])
    strides = props["torch.input_strides"]
    if layout == "nchw":
        assert strides.endswith("(contiguous)"), (name, strides)
    else:
        assert "channels" in strides and strides.split("]")[0].split(", ")[1] == "1", (name, strides)
    if dtype == "fp32":
        assert status == "ok", (name, status, r.get("reason"))
        v = r["verification"]
        assert v["passed"] and v["full"] and v["inputs_unchanged"] and v["mismatches"] == 0, (name, v)
        assert v["fresh_inputs"]["passed"], name
        seen["fp32"] += 1
    elif status == "ok":
        assert r["verification"]["passed"] and r["verification"]["fresh_inputs"]["passed"], name
        seen["half_ok"] += 1
    elif status in ("unsupported", "failed"):
        seen["half_not_run"] += 1
    if status == "wrong":
        assert not r["verification"]["passed"] and not (r.get("timing") or {}).get("samples_s"), name
    if is_module:
        assert r["implementation"].startswith("Model from "), r["implementation"]
assert seen["fp32"] == 16, seen  # torch: 14 (the passes' workload 2 each); module: 2
print("half-precision results:", seen, file=sys.stderr)
PY
