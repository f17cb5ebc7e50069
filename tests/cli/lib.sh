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
