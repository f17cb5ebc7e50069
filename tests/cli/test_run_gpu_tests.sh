# scripts/run-gpu-tests.sh: every test case in a process of its own. On a stand-in program whose
# third case "faults" and whose fifth hangs: the others still pass, the fault's output is shown,
# the hang is killed after KBENCH_GPU_CASE_TIMEOUT_S and reported, commas in names are escaped for
# doctest's filter, exit 1. With SECONDS for the whole run, the hanging case is cut at that deadline
# and the cases after it are NOT RUN; stopped from outside (gpu-check's step limit), no case outlives
# the script. On the real GPU test program without a device: the host cases pass, the device cases
# are skipped, exit 77.
source "$(dirname "$0")/lib.sh"
RUN="bash $SRC/scripts/run-gpu-tests.sh"

cat >"$WORK/fake" <<'SH'
#!/usr/bin/env bash
rule=$(printf '=%.0s' {1..79})
if [[ "$1" == --list-test-cases ]]; then
  printf '[doctest] listing all test case names\n%s\nfirst case\nsecond, with a comma\nthird faults\nfourth case\nfifth hangs\n%s\n' "$rule" "$rule"
  exit 0
fi
case "${1#--test-case=}" in
  "first case" | 'second\, with a comma' | "fourth case") exit 0 ;;
  "third faults") echo "cudaErrorIllegalAddress: an illegal memory access was encountered"; exit 1 ;;
  "fifth hangs") echo "waiting forever"; echo $$ >>"$(dirname "$0")/pids"; sleep 600 & echo $! >>"$(dirname "$0")/pids"
                 wait; exit 0 ;;
esac
echo "unexpected filter: $1"
exit 3
SH
chmod +x "$WORK/fake"
KBENCH_GPU_CASE_TIMEOUT_S=2 $RUN "$WORK/fake" >"$WORK/fake.txt"
rc=$?
cat "$WORK/fake.txt"
[[ $rc == 1 ]] || fail "a failed case must make the exit status 1, not $rc"
grep -q '^ok .*second, with a comma$' "$WORK/fake.txt" || fail "the case with a comma did not run under its escaped name"
grep -q '^ok .*fourth case$' "$WORK/fake.txt" || fail "the case after the fault did not run on its own"
grep -q '^FAILED .*third faults (exit 1)$' "$WORK/fake.txt" || fail "the failed case is not reported"
grep -q 'cudaErrorIllegalAddress' "$WORK/fake.txt" || fail "the failed case's output is not shown"
grep -q '^TIMEOUT .*fifth hangs (killed after 2s)$' "$WORK/fake.txt" || fail "the hanging case is not reported"
grep -q 'waiting forever' "$WORK/fake.txt" || fail "the hanging case's output is not shown"
grep -q '5 test cases: 3 ok, 2 failed, 0 skipped' "$WORK/fake.txt" || fail "wrong count"

# alive: whether any process the hanging case started still runs (a zombie, dead but not yet reaped, does not).
alive() {
  local pid state
  for pid in $(cat "$WORK/pids" 2>/dev/null); do
    # /proc/PID/stat: the state is the field after the parenthesised command name.
    state="$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null)" && [[ "$state" != Z* ]] && return 0
  done
  return 1
}
alive && fail "the hanging case outlived its timeout"

# A deadline of 4 s for the whole run: the hanging fifth case is cut there, not after its 60 s.
rm -f "$WORK/pids"
t0=$SECONDS
KBENCH_GPU_CASE_TIMEOUT_S=60 $RUN "$WORK/fake" 4 >"$WORK/deadline.txt"
rc=$?
cat "$WORK/deadline.txt"
(( SECONDS - t0 <= 7 )) || fail "the run took $((SECONDS - t0))s against a deadline of 4s"
[[ $rc == 1 ]] || fail "a case cut at the deadline must make the exit status 1, not $rc"
grep -q '^TIMEOUT .*fifth hangs (killed after [0-9.]*s)$' "$WORK/deadline.txt" || fail "the case cut at the deadline is not reported"
sleep 0.5; alive && fail "the case cut at the deadline outlived the run"
# A deadline already spent: every case NOT RUN.
$RUN "$WORK/fake" 0 >"$WORK/spent.txt"; rc=$?
[[ $rc == 1 ]] && grep -q '5 not run (out of time)' "$WORK/spent.txt" || { cat "$WORK/spent.txt"; fail "a spent deadline must leave every case NOT RUN, exit 1"; }
# Stopped from outside while the fifth case hangs (as gpu-check's `timeout` does at its step's limit):
# the case and its own `timeout`, in a process group of their own, go with the script.
rm -f "$WORK/pids"
timeout 2 $RUN "$WORK/fake" >"$WORK/stopped.txt"
rc=$?
[[ $rc == 124 ]] || fail "the outer timeout did not stop the run (exit $rc)"
sleep 0.5
[[ -s "$WORK/pids" ]] || fail "the hanging case did not start"
alive && fail "the hanging case outlived the step that ran it"
$RUN "$WORK/fake" soon >/dev/null; [[ $? == 2 ]] || fail "SECONDS that are not a number must give exit 2"

printf '#!/usr/bin/env bash\necho broken; exit 4\n' >"$WORK/broken" && chmod +x "$WORK/broken"
$RUN "$WORK/broken" >/dev/null
[[ $? == 2 ]] || fail "a program that cannot list its cases must give exit 2"

GPU_TESTS="$(dirname "$KBENCH")/../../tests/gpu/kbench_gpu_tests"
if [[ ! -x "$GPU_TESTS" ]]; then
  echo "no GPU test program in this build (no CUDA): the stand-in checks above are the test"
  exit 0
fi
host_cases=$("$GPU_TESTS" -ts=host 2>&1 | sed -n 's/^\[doctest\] test cases: *\([0-9]*\) |.*/\1/p' | head -1)
[[ -n "$host_cases" && "$host_cases" -gt 0 ]] || fail "could not count the host test cases"
$RUN "$GPU_TESTS" >"$WORK/real.txt"
rc=$?
tail -n 1 "$WORK/real.txt"
if "$GPU_TESTS" -ts=host >/dev/null 2>&1 && [[ "$(grep -c '^skipped' "$WORK/real.txt")" -gt 0 ]]; then
  [[ $rc == 77 ]] || fail "without a device the exit status must be 77, not $rc"
  [[ "$(grep -c '^ok' "$WORK/real.txt")" == "$host_cases" ]] || fail "not every host case passed on its own"
fi
! grep -q '^FAILED' "$WORK/real.txt" || fail "a GPU test case failed"
echo "PASS"
