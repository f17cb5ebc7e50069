# `run` and `compare` end with one line on stderr: results by status out of the workloads asked for, and
# where the report went; after Ctrl-C it says how far the run got of the whole.
source "$(dirname "$0")/lib.sh"
small="$SRC/tests/data/cli/small_conv2d.yaml"

backends=reference
built_with_cuda && backends=reference,cuda
"$KBENCH" run "$small" --backends "$backends" --iterations 2 --format json --output "$WORK/out.json" \
  > /dev/null 2> "$WORK/err.txt"
last=$(tail -n 1 "$WORK/err.txt")
if ! built_with_cuda; then
  want="kbench: done: 1 result of 1 workload: 1 ok; report in $WORK/out.json (json)"
elif "$KBENCH" info 2>/dev/null | grep -q "^device 0:"; then
  want="kbench: done: 2 results of 1 workload: 2 ok; report in $WORK/out.json (json)"
else
  want="kbench: done: 2 results of 1 workload: 1 ok, 1 unavailable; report in $WORK/out.json (json)"
fi
[ "$last" = "$want" ] || fail "closing line: '$last', expected '$want'"

"$KBENCH" run "$small" --backends reference --iterations 2 --time-budget 0.000001 --allow-empty > /dev/null \
  2> "$WORK/err.txt"
last=$(tail -n 1 "$WORK/err.txt")
[ "$last" = "kbench: done: 1 result of 1 workload: 0 ok, 1 skipped; report on stdout (text)" ] ||
  fail "closing line of a skipped run: '$last'"

# Interrupted in the first of three workloads: "after 1 of 3 workloads".
"$KBENCH" run "$SRC/tests/data/cli/slow_conv3d.yaml" "$small" "$small" --backends reference --iterations 100000 \
  --time-budget 30 > /dev/null 2> "$WORK/err.txt" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "interrupted run: exit $status"
grep -q "^kbench: interrupted after 1 of 3 workloads: 1 result: 1 ok; report on stdout (text)$" "$WORK/err.txt" ||
  fail "closing line after Ctrl-C: $(tail -n 2 "$WORK/err.txt")"
echo "ok"
