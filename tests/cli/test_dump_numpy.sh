# --dump read by numpy itself (Debian's python3-numpy under /usr/bin/python3; skipped, exit 77, without it):
# for fp32 NCHW, fp16 NHWC and bf16 NHWC workloads, each file's numpy dtype and memory shape are the
# index's, and a convolution computed by numpy from the dumped inputs (permuted back to NCHW) equals
# kbench's fp64 reference output permuted the same way; the reference backend's output is that result
# rounded once to the dtype.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  echo "skipped: $PY has no numpy (apt-get install python3-numpy)"
  exit 77
fi
cat > "$WORK/specs.yaml" <<'YAML'
- {name: d32, op: conv, dtype: fp32, layout: nchw, input: [2, 4, 7, 6], out_channels: 6, kernel: [3, 2], stride: [2, 1], padding: 1, groups: 2, bias: true}
- {name: d16, op: conv, dtype: fp16, layout: nhwc, input: [2, 4, 7, 6], out_channels: 6, kernel: [3, 2], stride: [2, 1], padding: 1, groups: 2, bias: true}
- {name: b16, op: conv, dtype: bf16, layout: nhwc, input: [2, 4, 7, 6], out_channels: 6, kernel: [3, 2], stride: [2, 1], padding: 1, groups: 2, bias: true}
- {name: t16, op: conv_transpose, dtype: fp16, layout: nhwc, input: [1, 4, 5, 5], out_channels: 2, kernel: 3, stride: 2, padding: 1, output_padding: 1, bias: true}
YAML
"$KBENCH" run "$WORK/specs.yaml" --backends reference --iterations 1 --warmups 0 --seed 11 --dump "$WORK/dump" \
  >"$WORK/run.txt" 2>&1 || { cat "$WORK/run.txt" >&2; fail "run with --dump"; }
"$PY" - "$WORK/dump" <<'PY' || fail "numpy read-back"
import json, os, sys
import numpy as np
d = sys.argv[1]

def load(entry, layout):
    a = np.load(os.path.join(d, entry["file"]))
    assert list(a.shape) == entry["shape"], (entry, a.shape)
    want = {"float32": np.float32, "float16": np.float16, "bfloat16": np.uint16, "float64": np.float64}[entry["dtype"]]
    assert a.dtype == want, (entry, a.dtype)
    if entry["dtype"] == "bfloat16":  # bit patterns: the upper half of a float32
        a = (a.astype(np.uint32) << 16).view(np.float32)
    a = a.astype(np.float64)
    if layout == "nhwc" and a.ndim > 1:  # [d0, s..., d1] -> [d0, d1, s...]
        a = np.moveaxis(a, -1, 1)
    assert list(a.shape) == entry["logical_shape"], (entry, a.shape)
    return a

def conv2d(x, w, b, stride, pad, groups):
    n, c, h, wd = x.shape
    co, cig, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride[0] + 1
    ow = (wd + 2 * pad - kw) // stride[1] + 1
    out = np.zeros((n, co, oh, ow))
    cog = co // groups
    for g in range(groups):
        xs = x[:, g * cig:(g + 1) * cig]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i:i + stride[0] * oh:stride[0], j:j + stride[1] * ow:stride[1]]
                out[:, g * cog:(g + 1) * cog] += np.einsum("nchw,oc->nohw", patch, w[g * cog:(g + 1) * cog, :, i, j])
    return out + b[None, :, None, None]

def conv_transpose2d(x, w, b, stride, pad, out_pad):
    n, ci, h, wd = x.shape
    _, co, kh, kw = w.shape
    full = np.zeros((n, co, (h - 1) * stride + kh + out_pad, (wd - 1) * stride + kw + out_pad))
    for i in range(kh):
        for j in range(kw):
            full[:, :, i:i + stride * h:stride, j:j + stride * wd:stride] += np.einsum("nchw,co->nohw", x, w[:, :, i, j])
    oh = (h - 1) * stride - 2 * pad + kh + out_pad
    ow = (wd - 1) * stride - 2 * pad + kw + out_pad
    return full[:, :, pad:pad + oh, pad:pad + ow] + b[None, :, None, None]

def bf16_widened(x):
    # fp64 -> bf16 with one rounding, to nearest even: to fp32 rounding to odd first (toward zero, the last
    # bit set if inexact), which keeps enough to decide the second rounding (fp32 has 16 bits to spare).
    x = np.asarray(x, dtype=np.float64)
    f = x.astype(np.float32)
    over = np.abs(f.astype(np.float64)) > np.abs(x)
    f = np.where(over, np.nextafter(f, np.float32(0)), f)
    bits = f.view(np.uint32).astype(np.uint64)
    bits |= (f.astype(np.float64) != x).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)

for name in ["d32", "d16", "b16", "t16"]:
    index = json.load(open(os.path.join(d, name + ".index.json")))
    layout = index["layout"]
    files = {f["role"]: f for f in index["files"]}
    for f in files.values():
        assert f["layout"] == layout, f
    x, w, b = (load(files[r], layout) for r in ("x", "weight", "bias"))
    ref = load(files["reference"], layout)
    if name == "t16":
        expected = conv_transpose2d(x, w, b, 2, 1, 1)
    else:
        expected = conv2d(x, w, b, (2, 1), 1, 2)
    assert np.allclose(ref, expected, rtol=1e-12, atol=1e-12), (name, np.abs(ref - expected).max())
    out = load(files["output:reference:fp32"], layout)
    dtype = index["dtype"]
    if dtype == "fp16":
        assert np.array_equal(out, ref.astype(np.float16).astype(np.float64)), name
    elif dtype == "bf16":
        assert np.array_equal(out, bf16_widened(ref)), (name, np.abs(out - bf16_widened(ref)).max())
    else:
        assert np.array_equal(out, ref.astype(np.float32).astype(np.float64)), name
    print(name, dtype, layout, "ok")
PY
echo "ok"
