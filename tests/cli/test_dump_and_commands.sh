# --dump writes readable .npy files; list, info and --version work; compare needs two backends.
source "$(dirname "$0")/lib.sh"
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 2 --seed 3 --dump "$WORK/dump" > /dev/null 2>&1 \
  || fail "run with --dump"
python3 - "$WORK/dump" <<'PY' || fail "dump contents"
import json, os, struct, sys
d = sys.argv[1]
index = json.load(open(os.path.join(d, "cli-small-conv2d.index.json")))
roles = {f["role"] for f in index["files"]}
assert {"x", "weight", "bias", "reference"} <= roles, roles
for f in index["files"]:
    raw = open(os.path.join(d, f["file"]), "rb").read()
    assert raw[:6] == b"\x93NUMPY", f
    n = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + n].decode()
    count = 1
    for s in f["shape"]:
        count *= s
    width = 8 if f["dtype"] == "float64" else 4
    assert (10 + n) % 64 == 0 and len(raw) == 10 + n + count * width, (f, len(raw))
    assert str(tuple(f["shape"])).replace(" ", "") in header.replace(" ", ""), header
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
