# Paths that are not regular files or directories, given to every command that reads one: each is
# refused at once (exit 2) naming the path, never read forever or blocked on (docs/robustness.md).
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"

# refused CODE PATTERN ARGS...: kbench ARGS exits CODE within 20 s, its stderr matching PATTERN.
refused() {
  local want="$1" pattern="$2"; shift 2
  timeout 20 "$KBENCH" "$@" > "$WORK/out" 2> "$WORK/err"
  local got=$?
  [ "$got" -ne 124 ] || fail "kbench $* blocked (killed after 20 s)"
  [ "$got" -eq "$want" ] || { cat "$WORK/err"; fail "kbench $*: exit $got, expected $want"; }
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err"; fail "kbench $*: stderr lacks '$pattern'"; }
}

"$KBENCH" run "$SPEC" --backends reference --iterations 2 --format json --output "$WORK/results.json" \
  > /dev/null 2>&1 || fail "a small run for the results file"

# --- A named pipe nobody writes to, as each kind of input file.
mkfifo "$WORK/pipe.yaml" "$WORK/pipe.json"
fifo="it is a named pipe (FIFO)"
for command in "run" "compare --backends reference,reference" "plan" "list"; do
  refused 2 "$WORK/pipe.yaml: cannot open workload spec: $fifo" $command "$WORK/pipe.yaml"
done
refused 2 "$WORK/pipe.json: cannot open the results file: $fifo" diff "$WORK/pipe.json" "$WORK/results.json"
refused 2 "$WORK/pipe.json: cannot open the results file: $fifo" diff "$WORK/results.json" "$WORK/pipe.json"
refused 2 "$WORK/pipe.json: cannot open the results file: $fifo" report "$WORK/pipe.json" --html "$WORK/r.html"
refused 2 "$WORK/pipe.json: cannot open peaks file: $fifo" run "$SPEC" --peaks "$WORK/pipe.json"
# Checked before anything is read: the good spec first changes nothing.
refused 2 "$WORK/pipe.yaml: cannot open workload spec" run "$SPEC" "$WORK/pipe.yaml"
[ ! -s "$WORK/out" ] || fail "a run with a FIFO among its specs printed a report"

# --- Character devices: endless (/dev/zero), empty (/dev/null), a terminal's stand-in.
refused 2 "/dev/zero: cannot open workload spec: it is a character device" run /dev/zero
refused 2 "/dev/null: cannot open workload spec: it is a character device" plan /dev/null
refused 2 "/dev/urandom: cannot open the results file: it is a character device" report /dev/urandom
refused 2 "/dev/zero: cannot open peaks file: it is a character device" run "$SPEC" --peaks /dev/zero

# --- A spec file over the size limit (4 MiB): refused with the limit, not parsed.
{ cat "$SPEC"; head -c $((4 * 1024 * 1024)) /dev/zero | tr '\0' '#'; } > "$WORK/huge.yaml"
refused 2 "huge.yaml: cannot open workload spec: it is [0-9]* bytes; the limit is 4 MiB" list "$WORK/huge.yaml"

# --- Directories whose links loop: refused once, naming the link, with a short message.
mkdir -p "$WORK/tree/nested"
cp "$SPEC" "$WORK/tree/nested/a.yaml"
ln -s .. "$WORK/tree/nested/up"
for command in run plan list; do
  refused 2 "$WORK/tree/nested/up: symbolic link loop: it leads back to $WORK/tree" $command "$WORK/tree"
done
[ "$(wc -c < "$WORK/err")" -lt 400 ] || fail "the loop message is $(wc -c < "$WORK/err") bytes long"
rm "$WORK/tree/nested/up"
# A link that loops on itself, and a *.yaml entry that is a pipe, inside a directory.
ln -s self.yaml "$WORK/tree/self.yaml"
refused 2 "$WORK/tree/self.yaml: cannot open workload spec: a symbolic link loop" list "$WORK/tree"
rm "$WORK/tree/self.yaml"
mkfifo "$WORK/tree/pipe.yml"
refused 2 "$WORK/tree/pipe.yml: cannot open workload spec: $fifo" list "$WORK/tree"
rm "$WORK/tree/pipe.yml"
"$KBENCH" list "$WORK/tree" > /dev/null 2>&1 || fail "the tree without its loop should list"

# --- A directory where a file is expected.
refused 2 "$WORK/tree: cannot open the results file: it is a directory" diff "$WORK/tree" "$WORK/results.json"
refused 2 "$WORK/tree: cannot open peaks file: it is a directory" run "$SPEC" --peaks "$WORK/tree"

# --- Results files whose content would crash the renderers: found by fuzz_results_json (a stride
# of 0 divided by zero in every report: SIGFPE) and while writing these tests (1e999: exit 1).
FINDING="$SRC/tests/fuzz/corpus-results/finding_zero_stride.json"
refused 2 "finding_zero_stride.json: results JSON /workloads/0/problem/stride: got 0" report "$FINDING"
refused 2 "finding_zero_stride.json: results JSON /workloads/0/problem/stride: got 0" diff "$FINDING" "$WORK/results.json"
printf '{"schema": "kbench.results/1", "kbench_version": 1e999}' > "$WORK/overflow.json"
refused 2 "overflow.json: not JSON: .*number overflow" report "$WORK/overflow.json"
echo "ok"
