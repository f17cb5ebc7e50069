# Shared by the CLI tests: `source` it. $1 = kbench binary, $2 = source tree.
set -uo pipefail
KBENCH="$1"
SRC="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# json_check FILE PYTHON_EXPR: asserts the expression is true with `doc` bound to the parsed file.
json_check() {
  python3 - "$1" "$2" <<'PY' || fail "json check failed: $2"
import json, sys
doc = json.load(open(sys.argv[1]))
ok = eval("(" + sys.argv[2] + "\n)")  # parenthesised: an expression may span lines
if not ok:
    print("expression false:", sys.argv[2], file=sys.stderr)
    sys.exit(1)
PY
}
# require_torch: skips the test (exit 77) where Debian's /usr/bin/python3 cannot import torch, else sets PY
# to it. The embedded interpreter is never finalised (torch does not survive Py_Finalize): what it holds at
# exit is not a leak of kbench's, so the sanitizer build does not count it.
require_torch() {
  PY=/usr/bin/python3
  if ! "$PY" -c "import torch" >/dev/null 2>&1; then
    echo "SKIP: $PY cannot import torch (Debian: apt install python3-torch libpython3.11)"
    exit 77
  fi
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}
# max_width FILE WIDTH: asserts no line of FILE is wider than WIDTH columns (characters, not bytes: 'µ', '×').
max_width() {
  python3 - "$1" "$2" <<'PY' || fail "$1 is wider than $2 columns"
import sys
width = int(sys.argv[2])
bad = [(n, l) for n, l in enumerate(open(sys.argv[1], encoding="utf-8").read().splitlines(), 1) if len(l) > width]
for n, l in bad[:3]:
    print(f"line {n} has {len(l)} columns: {l}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# built_with_cuda: whether this kbench has the cuda backend at all (the sanitize and cpu presets do not:
# there `--backends cuda` is an unknown backend, exit 2, rather than an unavailable one).
built_with_cuda() {
  "$KBENCH" plan "$SRC/tests/data/cli/small_conv2d.yaml" --backends cuda > /dev/null 2>&1
}
