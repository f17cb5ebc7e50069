# `kbench list` works from any directory: backends (why one is unavailable, first) and devices, then the
# workloads given, or ./workloads where there is one; each backend's lines fit the terminal ($COLUMNS).
source "$(dirname "$0")/lib.sh"
mkdir "$WORK/empty"
(cd "$WORK/empty" && COLUMNS=70 "$KBENCH" list) > "$WORK/list.txt" 2> "$WORK/err.txt" ||
  fail "list outside the repository: exit $?: $(cat "$WORK/err.txt")"
[ "$(head -n 1 "$WORK/list.txt")" = "Backends:" ] || fail "list does not start with the backends"
grep -q "^  reference  available: " "$WORK/list.txt" || fail "no reference line: $(cat "$WORK/list.txt")"
grep -q "^This machine: GPU .*; CPU " "$WORK/list.txt" || fail "no line for this machine's devices"
grep -q "^Workloads: none here" "$WORK/list.txt" || fail "no word of the missing workloads"
# Backend lines, to the blank line after them, fit 70 columns; an unavailable one says why first.
awk '/^Backends:/{on=1; next} /^$/{on=0} on' "$WORK/list.txt" > "$WORK/backends.txt"
max_width "$WORK/backends.txt" 70
if grep -q "^  cuda       unavailable" "$WORK/backends.txt"; then
  grep -q "^  cuda       unavailable: no " "$WORK/backends.txt" || fail "cuda's reason is not first"
fi
# Given paths are listed from anywhere; ./workloads is used where present.
(cd "$WORK/empty" && "$KBENCH" list "$SRC/tests/data/cli/small_conv2d.yaml") > "$WORK/one.txt" 2>&1 ||
  fail "list of a given spec: exit $?"
grep -q "^  cli-small-conv2d" "$WORK/one.txt" || fail "the given spec is not listed"
mkdir "$WORK/empty/workloads" && cp "$SRC/tests/data/cli/small_conv2d.yaml" "$WORK/empty/workloads/"
(cd "$WORK/empty" && "$KBENCH" list) > "$WORK/here.txt" 2>&1 || fail "list with ./workloads: exit $?"
grep -q "^  cli-small-conv2d" "$WORK/here.txt" || fail "./workloads is not listed"
echo "ok"
