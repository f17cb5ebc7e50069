# Every numeric flag of every command refuses non-finite, out-of-range and malformed values at parse
# time (exit 2, before any work), naming the flag and the accepted range (docs/cli.md).
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"
printf '{}' > "$WORK/a.json"

# refused ARGS...: exit 2 and a message naming the command, the flag (the last-but-one argument) and a range.
refused() {
  local flag="${*: -2:1}"
  timeout 20 "$KBENCH" "$@" > "$WORK/out" 2> "$WORK/err"
  local got=$?
  [ "$got" -eq 2 ] || { cat "$WORK/err"; fail "kbench $*: exit $got, expected 2"; }
  grep -q -- "^kbench: error: [a-z]*: $flag: expected .* in [[(]" "$WORK/err" || { cat "$WORK/err"; fail "kbench $*: no '$flag: expected ... in RANGE'"; }
  [ ! -s "$WORK/out" ] || fail "kbench $*: printed on stdout"
}

for command in run compare; do
  for bad in nan NaN inf -inf 1e999 0 -1 "" " 5" 5x; do
    refused $command "$SPEC" --time-budget "$bad"
  done
  for bad in nan inf -1 1e999 2e6; do refused $command "$SPEC" --workspace-limit "$bad"; done
  for bad in nan inf -1e-9 1e7; do refused $command "$SPEC" --atol "$bad"; refused $command "$SPEC" --rtol "$bad"; done
  for bad in nan 0 1.5 1e3 0x10 -3 1000001 99999999999999999999; do refused $command "$SPEC" --iterations "$bad"; done
  for bad in nan -1 1001 2.0; do refused $command "$SPEC" --warmups "$bad"; done
  for bad in nan -1 1.5 18446744073709551616 +5; do refused $command "$SPEC" --seed "$bad"; done
  for bad in nan 0 -4 2147483648 1e3; do refused $command "$SPEC" --batch "$bad"; done
  for bad in nan -1 1024 0.5; do refused $command "$SPEC" --device "$bad"; done
  for bad in nan 15 67108865 1e4; do refused $command "$SPEC" --verify-points "$bad"; done
done
for bad in nan -1 1024; do refused plan "$SPEC" --device "$bad"; refused calibrate --device "$bad"; done
for bad in nan inf 0 0.6 -0.01 1e999; do refused diff "$WORK/a.json" "$WORK/a.json" --alpha "$bad"; done
for bad in nan nan% inf -1 1000 5%% 5x ""; do refused diff "$WORK/a.json" "$WORK/a.json" --threshold "$bad"; done

# The messages say exactly what is accepted.
"$KBENCH" run "$SPEC" --time-budget nan 2> "$WORK/err"
grep -qx -- "kbench: error: run: --time-budget: expected a finite number in (0, 86400\], got 'nan'; see 'kbench run --help'" "$WORK/err" || { cat "$WORK/err"; fail "time-budget message"; }
"$KBENCH" run "$SPEC" --iterations 0 2> "$WORK/err"
grep -qx -- "kbench: error: run: --iterations: expected a whole number in \[1, 1000000\], got '0'; see 'kbench run --help'" "$WORK/err" || { cat "$WORK/err"; fail "iterations message"; }

# Values at the edges of each range are still accepted (checked by `kbench plan`'s flags and a real run).
"$KBENCH" plan "$SPEC" --device 1023 > /dev/null 2>&1 || fail "plan --device 1023 refused"
"$KBENCH" run "$SPEC" --backends reference --iterations 1 --warmups 0 --time-budget 86400 --seed 18446744073709551615 \
  --workspace-limit 0 --atol 0 --rtol 1e6 --verify-points 16 --batch 1 > /dev/null 2> "$WORK/err" \
  || { cat "$WORK/err"; fail "a run at the edges of every range failed"; }
echo "ok"
