# Bad specs and bad flags exit 2 with a message naming the file, line and key.
source "$(dirname "$0")/lib.sh"
cat > "$WORK/bad.yaml" <<'YAML'
name: bad-one
op: conv
input: [1, 4, 8, 8]
out_channels: 4
kernel: 3
strde: 2
YAML
"$KBENCH" run "$WORK/bad.yaml" > "$WORK/out.txt" 2> "$WORK/err.txt"
status=$?
[ $status -eq 2 ] || fail "unknown key: exit $status, expected 2"
grep -q "bad.yaml:6:1" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "no file:line:col in the message"; }
grep -q "strde" "$WORK/err.txt" || fail "the message does not name the key"
grep -q "stride" "$WORK/err.txt" || fail "no did-you-mean suggestion"

"$KBENCH" run "$WORK/does-not-exist.yaml" > /dev/null 2> "$WORK/err2.txt"
[ $? -eq 2 ] || fail "missing file should exit 2"

"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --math fp64 > /dev/null 2>&1
[ $? -eq 2 ] || fail "bad --math should exit 2"

"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends no-such-backend > /dev/null 2> "$WORK/err3.txt"
[ $? -eq 2 ] || fail "unknown backend should exit 2"
grep -q "unknown backend 'no-such-backend'" "$WORK/err3.txt" || fail "unknown backend message"

"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --target no-such-gpu > /dev/null 2> "$WORK/err4.txt"
[ $? -eq 2 ] || fail "unknown --target should exit 2"
echo "ok"
