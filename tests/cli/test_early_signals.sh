# Signals before the run starts (docs/exit-codes.md): kbench's handlers are in place from the first
# instruction, so SIGTERM or SIGINT while specs load, devices are probed or backends register is
# exit 130, never a death by the signal (143), and an --output from an earlier run is left as it was.
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"

# with_pending SIGNAL COMMAND...: runs COMMAND with SIGNAL already pending (and blocked) as it starts,
# so it lands at kbench's first instruction that lets it in, before any spec is read.
with_pending() {
  python3 - "$@" <<'PY'
import os, signal, sys
number = getattr(signal, sys.argv[1])
signal.pthread_sigmask(signal.SIG_BLOCK, {number})
os.kill(os.getpid(), number)
os.execv(sys.argv[2], sys.argv[2:])
PY
}

echo "an earlier run" > "$WORK/out.json"
for sig in SIGTERM SIGINT; do
  with_pending $sig "$KBENCH" run "$SPEC" --backends reference --iterations 2 --warmups 0 --format json \
    --output "$WORK/out.json" > "$WORK/stdout" 2> "$WORK/err"
  status=$?
  [ $status -eq 130 ] || { cat "$WORK/err"; fail "$sig pending at start of run: exit $status, expected 130"; }
  grep -q "interrupted" "$WORK/err" || fail "$sig pending at start: no word of the interruption"
  [ "$(cat "$WORK/out.json")" = "an earlier run" ] || fail "$sig pending at start: --output was rewritten"
  with_pending $sig "$KBENCH" plan "$SPEC" > /dev/null 2> "$WORK/err"
  status=$?
  [ $status -eq 130 ] || { cat "$WORK/err"; fail "$sig pending at start of plan: exit $status, expected 130"; }
done

# While a backend registers: the torch backend's interpreter probe, held up by a Python that sleeps.
cat > "$WORK/slow-python" <<'SH'
#!/bin/sh
exec sleep 5
SH
chmod +x "$WORK/slow-python"
# probe_during_term COMMAND...: SIGTERM one second into COMMAND, whose probe of slow-python takes 5 s.
probe_during_term() {
  "$KBENCH" "$@" > /dev/null 2> "$WORK/err" &
  local pid=$!
  sleep 1
  kill -TERM $pid
  wait $pid
}
probe_during_term list "$SPEC" --python "$WORK/slow-python"
status=$?
[ $status -eq 130 ] || { cat "$WORK/err"; fail "SIGTERM while list probes Python: exit $status, expected 130"; }
probe_during_term import kernelbench "$SRC/tests/data/import/50_conv_standard_2D__alexnet_first_layer.py" \
  --reader torch --python "$WORK/slow-python"
status=$?
[ $status -eq 130 ] || { cat "$WORK/err"; fail "SIGTERM while import probes Python: exit $status, expected 130"; }
probe_during_term run "$SPEC" --backends reference,torch --python "$WORK/slow-python" --output "$WORK/out.json"
status=$?
[ $status -eq 130 ] || { cat "$WORK/err"; fail "SIGTERM while run probes Python: exit $status, expected 130"; }
echo "ok"
