# Terminal conventions (docs/cli.md, "Colour and progress"): on a terminal whose TERM is `dumb` (or
# unset) kbench writes no escape sequence at all, colours or line erasing; and the progress line is
# redrawn at a human rate (ProgressLine::kRedrawInterval, 100 ms), not once per sample.
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"

# on_terminal TERM SECONDS ARGS...: kbench ARGS run on a pseudo-terminal (stdout and stderr both),
# TERM set (or unset for "-"); prints "<escapes> <carriage returns> <seconds taken>" and saves what
# the terminal showed in $WORK/screen.
on_terminal() {
  python3 - "$KBENCH" "$WORK/screen" "$@" <<'PY'
import os, pty, sys, time
kbench, screen, term = sys.argv[1], sys.argv[2], sys.argv[3]
args = sys.argv[4:]
env = {k: v for k, v in os.environ.items() if k not in ("TERM", "NO_COLOR")}
if term != "-":
    env["TERM"] = term
start = time.monotonic()
pid, fd = pty.fork()
if pid == 0:
    os.execve(kbench, [kbench] + args, env)
out = b""
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
_, status = os.waitpid(pid, 0)
elapsed = time.monotonic() - start
open(screen, "wb").write(out)
code = os.waitstatus_to_exitcode(status)
if code != 0:
    sys.stderr.write(out.decode(errors="replace"))
    sys.exit(f"kbench exited {code}")
print(out.count(b"\x1b"), out.count(b"\r") - out.count(b"\r\n"), f"{elapsed:.2f}")
PY
}

RUN=(run "$SPEC" --backends reference --warmups 0 --seed 5)
# A terminal that takes escapes gets colour: the check below can fail.
read -r escapes _ _ < <(on_terminal xterm-256color "${RUN[@]}" --iterations 5) || fail "the run on an xterm"
[ "$escapes" -gt 0 ] || fail "no colour on an xterm: the terminal test proves nothing"
for term in dumb -; do
  read -r escapes _ _ < <(on_terminal $term "${RUN[@]}" --iterations 5) || fail "the run with TERM=$term"
  [ "$escapes" -eq 0 ] || { cat -v "$WORK/screen" | head -20; fail "TERM=$term: $escapes escape sequences"; }
done
# diff's text on a dumb terminal: no colour either.
"$KBENCH" "${RUN[@]}" --iterations 5 --format json --output "$WORK/a.json" > /dev/null 2>&1 || fail "a results file"
read -r escapes _ _ < <(on_terminal dumb diff "$WORK/a.json" "$WORK/a.json") || fail "diff with TERM=dumb"
[ "$escapes" -eq 0 ] || fail "TERM=dumb: diff wrote $escapes escape sequences"

# Thousands of samples in about 3 s: the line is redrawn at most about ten times a second, on either terminal.
for term in xterm dumb; do
  read -r _ redraws seconds < <(on_terminal $term "${RUN[@]}" --iterations 1000000 --time-budget 3) || fail "the long run"
  limit=$(python3 -c "print(int(10 * $seconds + 10))")
  [ "$redraws" -le "$limit" ] || fail "TERM=$term: $redraws redraws in $seconds s (at most $limit expected)"
  [ "$redraws" -ge 5 ] || fail "TERM=$term: only $redraws redraws in $seconds s: no progress line"
done
echo "ok"
