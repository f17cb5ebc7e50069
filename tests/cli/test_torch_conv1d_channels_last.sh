# torch on 1-D channels-last data (problem 76 in fp16/bf16 NHWC on the GPU): torch's _convolution makes a 3-D
# input contiguous before viewing it as 4-D, a transpose of the whole input inside the timed call. kbench
# hands torch the 4-D [N, C, 1, L] channels-last views instead. With KBENCH_TORCH_ATEN_OPS=1 each result
# records the aten operators of one timed call (torch.profiler, on the CPU here): a 2-D convolution, and no
# aten::contiguous, aten::clone or aten::copy_ in conv1d's forward and backward_data passes (torch's CPU
# kernels for the weight gradient and the transposed convolution copy to contiguous whatever they get; for
# those the 2-D call is checked); every result verified in full. Skips (77) without torch.
source "$(dirname "$0")/lib.sh"
require_torch
spec="$SRC/tests/data/cli/torch_conv1d_nhwc.yaml"

KBENCH_TORCH_ATEN_OPS=1 KBENCH_PYTHON=$PY "$KBENCH" run "$spec" --backends torch --iterations 2 --seed 5 \
  --format json --output "$WORK/out.json" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
status=$?
[ $status -eq 0 ] || { cat "$WORK/stderr.txt" "$WORK/stdout.txt"; fail "kbench run exited $status"; }
python3 - "$WORK/out.json" <<'PY' || fail "torch's 1-D channels-last calls are not as expected"
import json, sys
doc = json.load(open(sys.argv[1]))
results = doc["results"]
assert len(results) == 6, [(r["workload"], r["status"]) for r in results]
for r in results:
    name = r["workload"]
    assert r["status"] == "ok", (name, r["status"], r.get("reason"))
    v = r["verification"]
    assert v["passed"] and v["full"] and v["fresh_inputs"]["passed"], (name, v)
    props = r["properties"]
    assert "channels" in props["torch.input_strides"], (name, props["torch.input_strides"])
    assert props.get("torch.call_as", "").startswith("2-D, on the [N, C, 1, L] channels-last views"), (name, props)
    ops = [op.strip() for op in props["torch.aten_ops"].split(",")]
    assert "aten::conv2d" in ops or "aten::conv_transpose2d" in ops or "aten::convolution_backward" in ops, (name, ops)
    assert not {"aten::conv1d", "aten::conv_transpose1d"} & set(ops), (name, ops)
    copies = {"aten::contiguous", "aten::clone", "aten::copy_"} & set(ops)
    if name.endswith("backward_weights") or name.startswith("t1d-conv-transpose"):
        # On the CPU torch's own kernels for these (the weight gradient, slow_conv_transpose2d) take
        # contiguous operands whatever they are given; the call they get is the 2-D one (checked above).
        continue
    assert not copies, (name, "the timed call copies its tensors", sorted(copies), ops)
PY
echo "ok"
