# --dump writes readable .npy files; list, info and --version work; compare needs two backends.
source "$(dirname "$0")/lib.sh"
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 2 --seed 3 --dump "$WORK/dump" > /dev/null 2>&1 \
  || fail "run with --dump"
sed -e 's/^name: .*/name: cli-small-conv2d-half/' -e '/^dtype:/d' "$SRC/tests/data/cli/small_conv2d.yaml" > "$WORK/half.yaml"
printf 'dtype: fp16\nlayout: nhwc\n' >> "$WORK/half.yaml"
"$KBENCH" run "$WORK/half.yaml" --backends reference --iterations 2 --seed 3 --dump "$WORK/dump" \
  > /dev/null 2>&1 || fail "run an fp16 nhwc spec with --dump"
python3 - "$WORK/dump" <<'PY' || fail "dump contents"
import json, os, struct, sys
d = sys.argv[1]
for name, dtype, layout in [("cli-small-conv2d", "float32", "nchw"), ("cli-small-conv2d-half", "float16", "nhwc")]:
  index = json.load(open(os.path.join(d, name + ".index.json")))
  roles = {f["role"] for f in index["files"]}
  assert {"x", "weight", "bias", "reference"} <= roles, roles
  assert index["layout"] == layout, index
  for f in index["files"]:
    assert f["dtype"] == (dtype if f["role"] != "reference" else "float64"), f
    assert f["layout"] == layout, f
    if layout == "nhwc" and f["role"] != "bias":  # [d0, d1, s...] -> [d0, s..., d1]
      ls = f["logical_shape"]
      assert f["shape"] == [ls[0]] + ls[2:] + [ls[1]], f
  for f in index["files"]:
    raw = open(os.path.join(d, f["file"]), "rb").read()
    assert raw[:6] == b"\x93NUMPY", f
    n = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + n].decode()
    count = 1
    for s in f["shape"]:
        count *= s
    width, descr = {"float64": (8, "<f8"), "float32": (4, "<f4"), "float16": (2, "<f2"), "bfloat16": (2, "<u2")}[f["dtype"]]
    assert (10 + n) % 64 == 0 and len(raw) == 10 + n + count * width, (f, len(raw))
    assert str(tuple(f["shape"])).replace(" ", "") in header.replace(" ", ""), header
    assert "'descr': '%s'" % descr in header, header
PY
"$KBENCH" --version | grep -q "kbench" || fail "--version"
# Into a file first: `grep -q` stops reading at its match, and the suite's listing is long enough that
# kbench could then die of SIGPIPE, failing the pipeline under pipefail.
"$KBENCH" list "$SRC/workloads/kernelbench/level1" > "$WORK/list.txt" || fail "list of the suite"
grep -q "kernelbench-l1-076" "$WORK/list.txt" || fail "list shows the seeds"
grep -q "reference" "$WORK/list.txt" || fail "list shows the backends"
"$KBENCH" info | grep -q "kbench" || fail "info"
"$KBENCH" compare "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference > /dev/null 2>&1
[ $? -eq 2 ] || fail "compare with one backend should exit 2"
echo "ok"
