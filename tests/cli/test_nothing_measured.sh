# A run in which no result was verified and timed exits 4 (docs/exit-codes.md), saying why on stderr, so a
# CI job cannot go green on a table of `skipped` or `unavailable`; --allow-empty makes such a run exit 0.
source "$(dirname "$0")/lib.sh"
small="$SRC/tests/data/cli/small_conv2d.yaml"

# Every result skipped (a time budget no CPU run fits), on any machine.
"$KBENCH" run "$small" --backends reference --time-budget 0.000001 --format json --output "$WORK/skipped.json" \
  > "$WORK/stdout.txt" 2> "$WORK/stderr.txt"
status=$?
[ $status -eq 4 ] || { cat "$WORK/stderr.txt"; fail "a run that measured nothing: exit $status, expected 4"; }
grep -q "kbench: error: nothing was measured" "$WORK/stderr.txt" || fail "no reason on stderr: $(cat "$WORK/stderr.txt")"
json_check "$WORK/skipped.json" 'doc["results"][0]["status"] == "skipped"'  # the report is still written
grep -q "cli-small-conv2d" "$WORK/stdout.txt" || fail "the text table is still printed"

"$KBENCH" run "$small" --backends reference --time-budget 0.000001 --allow-empty > /dev/null 2> "$WORK/stderr.txt" ||
  fail "--allow-empty: exit $?"
grep -q "nothing was measured" "$WORK/stderr.txt" && fail "--allow-empty still complains"

# Without a GPU, a GPU backend alone is `unavailable`: exit 4, not 0.
if built_with_cuda && ! "$KBENCH" info 2>/dev/null | grep -q "^device 0:"; then
  "$KBENCH" run "$small" --backends cuda --iterations 2 > /dev/null 2>&1
  status=$?
  [ $status -eq 4 ] || fail "--backends cuda without a GPU: exit $status, expected 4"
  # compare: the same contract (the reference skipped by the budget, cuda unavailable).
  "$KBENCH" compare "$small" --backends reference,cuda --time-budget 0.000001 > /dev/null 2>&1
  status=$?
  [ $status -eq 4 ] || fail "a compare that measured nothing: exit $status, expected 4"
fi

# One measured result is enough.
"$KBENCH" run "$small" --backends reference --iterations 2 > /dev/null 2>&1 || fail "a measured run: exit $?"
echo "ok"
