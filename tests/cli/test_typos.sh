# A typo on the command line gets what a typo in a spec gets: one `kbench: error:` line naming the word
# and the nearest known one, exit 2. Covers commands, flags, backend names, --axis keys and values of
# --math and --format; and `--help` shows grouped flags and examples.
source "$(dirname "$0")/lib.sh"
small="$SRC/tests/data/cli/small_conv2d.yaml"

# expect_error WANT ARGS...: exit 2, and stderr's one line starts with the prefix and holds WANT.
expect_error() {
  local want="$1"
  shift
  "$KBENCH" "$@" > "$WORK/out.txt" 2> "$WORK/err.txt"
  local status=$?
  [ $status -eq 2 ] || fail "kbench $*: exit $status, expected 2"
  [ "$(wc -l < "$WORK/err.txt")" -eq 1 ] || fail "kbench $*: more than one line: $(cat "$WORK/err.txt")"
  grep -q "^kbench: error: " "$WORK/err.txt" || fail "kbench $*: not 'kbench: error:': $(cat "$WORK/err.txt")"
  grep -qF -- "$want" "$WORK/err.txt" || fail "kbench $*: no '$want' in: $(cat "$WORK/err.txt")"
}

expect_error "unknown command 'rnu' (did you mean 'run'?)" rnu "$small"
expect_error "unknown command 'comapre' (did you mean 'compare'?)" comapre "$small"
expect_error "run: unknown flag '--backend' (did you mean '--backends'?)" run "$small" --backend cuda
expect_error "unknown flag '--iteration' (did you mean '--iterations'?)" run "$small" --iteration=3
expect_error "unknown flag '--basline' (did you mean '--baseline'?)" compare "$small" --backends a,b --basline a
expect_error "unknown backend 'refrence' (did you mean 'reference'?)" run "$small" --backends refrence
expect_error "unknown key 'batchsize' (did you mean 'batch'?)" run "$small" --axis batchsize=1,8
expect_error "dtype: fp16" run "$small" --math fp16
expect_error "(did you mean 'json'?)" run "$small" --format jsn
expect_error "(did you mean 'tf32'?)" plan "$small" --math tf23
# A variant name (where this build has the cuda backend): its plan line names the nearest family.
"$KBENCH" list > "$WORK/list.txt" 2>/dev/null
if grep -q "^  cuda " "$WORK/list.txt"; then
  "$KBENCH" plan "$small" --backends cuda:direkt > "$WORK/plan.txt" 2>&1 || fail "plan cuda:direkt: exit $?"
  grep -qF "no kernel family 'direkt' (did you mean 'direct'?)" "$WORK/plan.txt" || fail "variant: $(cat "$WORK/plan.txt")"
fi
# CLI11's own messages get the same prefix and name the command.
expect_error "run: --iterations" run "$small" --iterations 0

# --help: flags in groups, and examples.
"$KBENCH" run --help > "$WORK/help.txt" || fail "run --help: exit $?"
for want in "Timing:" "Verification:" "Report:" "Examples:" "kbench run my-conv.yaml"; do
  grep -qF "$want" "$WORK/help.txt" || fail "run --help lacks '$want'"
done
"$KBENCH" compare --help > "$WORK/help.txt" || fail "compare --help: exit $?"
grep -qF "Examples:" "$WORK/help.txt" || fail "compare --help has no examples"
echo "ok"
