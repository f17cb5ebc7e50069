# scripts/soak-tests.sh: the unit and emulation test programs once per seed, with KBENCH_TEST_SEED
# set to it and the emulation's eight modes taken in turn. On stand-in programs that record how they
# were called and fail on seed 4: every seed runs both, the modes rotate, the failing run's output
# is kept under its seed's name and the passing ones' are not, exit 1; bad arguments exit 2.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/build/tests"
for name in kbench_unit_tests kbench_emu_tests; do
  cat >"$WORK/build/tests/$name" <<SH
#!/usr/bin/env bash
echo "$name seed=\$KBENCH_TEST_SEED args=\$*" >>"$WORK/calls.txt"
(( KBENCH_TEST_SEED == 4 )) && { echo "ERROR: a planted failure"; exit 1; }
exit 0
SH
  chmod +x "$WORK/build/tests/$name"
done
bash "$SRC/scripts/soak-tests.sh" --build "$WORK/build" --from 3 --seeds 3 --log "$WORK/log" >"$WORK/out.txt" 2>&1
rc=$?
cat "$WORK/out.txt" "$WORK/calls.txt"
[[ $rc == 1 ]] || fail "a failing seed must make the exit status 1, not $rc"
[[ "$(wc -l <"$WORK/calls.txt")" == 6 ]] || fail "three seeds must run both programs"
grep -q '^kbench_unit_tests seed=5 args=$' "$WORK/calls.txt" || fail "the unit tests did not run with seed 5 and no options"
# Schedule = seed mod 4, landing = (seed / 4) mod 2: seeds 3, 4, 5 cross both boundaries.
grep -q '^kbench_emu_tests seed=3 args=--emu-schedule=warp-ahead --emu-copies=at-wait$' "$WORK/calls.txt" ||
  fail "seed 3: not warp-ahead, landing at the wait"
grep -q '^kbench_emu_tests seed=4 args=--emu-schedule=ascending --emu-copies=at-issue$' "$WORK/calls.txt" ||
  fail "seed 4: not ascending, landing at issue"
grep -q '^kbench_emu_tests seed=5 args=--emu-schedule=descending --emu-copies=at-issue$' "$WORK/calls.txt" ||
  fail "seed 5: not descending, landing at issue"
grep -q 'planted failure' "$WORK/log/seed-4-kbench_unit_tests.log" || fail "the failing run's output was not kept"
[[ "$(ls "$WORK/log" | wc -l)" == 2 ]] || fail "passing runs' output must not be kept: $(ls "$WORK/log")"
grep -q 'seeds 3..5 (3), .* 2 failing runs' "$WORK/out.txt" || fail "wrong summary"

bash "$SRC/scripts/soak-tests.sh" --build "$WORK/build" --seeds many >/dev/null 2>&1
[[ $? == 2 ]] || fail "a count that is not a number must give exit 2"
bash "$SRC/scripts/soak-tests.sh" --build "$WORK/nothing" >/dev/null 2>&1
[[ $? == 2 ]] || fail "a build without test programs must give exit 2"
echo "PASS"
