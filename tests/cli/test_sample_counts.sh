# Statistics say what they rest on: a result is never a median of fewer samples than the protocol's
# minimum (3) because the budget ran out (it is sampled to the minimum, or skipped with the measured time
# of its first run when even that would not fit), and the headers give the real sample counts.
source "$(dirname "$0")/lib.sh"
small="$SRC/tests/data/cli/small_conv2d.yaml"

# A budget spent by the first sample.
"$KBENCH" run "$small" --backends reference --iterations 50 --time-budget 0.0001 --format json \
  --output "$WORK/thin.json" --allow-empty > /dev/null 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "exit $?"; }
json_check "$WORK/thin.json" 'all(r["status"] == "skipped" or r["timing"]["stats"]["count"] >= 3 for r in doc["results"])'
json_check "$WORK/thin.json" 'all("one run took" in r["reason"] or "needs about" in r["reason"]
                                  for r in doc["results"] if r["status"] == "skipped")'

# The header states the counts the medians rest on, not the --iterations asked for.
"$KBENCH" run "$small" --backends reference --iterations 4 > "$WORK/run.txt" 2>/dev/null || fail "run: exit $?"
grep -q "^samples  *4 per timed result" "$WORK/run.txt" || fail "no sample count in the header: $(head -12 "$WORK/run.txt")"
# compare needs two backends: the reference and cuda (unavailable without a GPU), where this build has cuda.
if built_with_cuda; then
  "$KBENCH" compare "$small" --backends reference,cuda --iterations 4 > "$WORK/cmp.txt" 2>/dev/null
  grep -q "medians of 4 samples each" "$WORK/cmp.txt" || fail "compare's header: $(head -5 "$WORK/cmp.txt")"
  grep -q "up to 4 samples\|of up to" "$WORK/cmp.txt" && fail "compare still says 'up to'"
fi
echo "ok"
