# Output destinations (--output, --dump, report --html, diff --output) that cannot be written are
# refused before any work (exit 2, nothing computed); one that fails later (a full disk: /dev/full,
# a file size limit) keeps the results, prints them to stdout and exits 3 naming the path.
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"
RUN=(run "$SPEC" --backends reference --iterations 2 --warmups 0 --seed 5)
# As root, private nodes of /dev/full and /dev/null where they can be made: a kbench that renamed over
# a device would then replace these, not the machine's.
FULL=/dev/full NULL=/dev/null
if [ "$(id -u)" -eq 0 ] && mknod "$WORK/full" c 1 7 2>/dev/null && mknod "$WORK/null" c 1 3 2>/dev/null; then
  FULL="$WORK/full" NULL="$WORK/null"
fi

"$KBENCH" "${RUN[@]}" --format json --output "$WORK/results.json" > /dev/null 2>&1 || fail "a good run"

# before CODE PATTERN ARGS...: exit CODE, nothing on stdout, and stderr is the one error line (no
# "GPU backends are unavailable" note either: nothing was started).
before() {
  local want="$1" pattern="$2"; shift 2
  timeout 60 "$KBENCH" "$@" > "$WORK/out" 2> "$WORK/err"
  local got=$?
  [ "$got" -eq "$want" ] || { cat "$WORK/err"; fail "kbench $*: exit $got, expected $want"; }
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err"; fail "kbench $*: stderr lacks '$pattern'"; }
  [ ! -s "$WORK/out" ] || fail "kbench $*: printed a report"
  [ "$(wc -l < "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "kbench $*: more than the error on stderr"; }
}

# --- Refused before any work.
mkdir "$WORK/dir"
touch "$WORK/file"
for command in run compare; do
  before 2 "--output: $WORK/missing/out.json: the directory $WORK/missing does not exist" \
    $command "$SPEC" --backends reference,reference --output "$WORK/missing/out.json"
done
before 2 "--output: $WORK/dir: it is a directory" "${RUN[@]}" --output "$WORK/dir"
before 2 "--output: $WORK/file/out.json: Not a directory" "${RUN[@]}" --output "$WORK/file/out.json"
before 2 "--dump: $WORK/file/d: $WORK/file is a regular file, not a directory" "${RUN[@]}" --dump "$WORK/file/d"
before 2 "--dump: $WORK/file: $WORK/file is a regular file, not a directory" "${RUN[@]}" --dump "$WORK/file"
before 2 "--html: $WORK/missing/r.html: the directory $WORK/missing does not exist" \
  report "$WORK/results.json" --html "$WORK/missing/r.html"
before 2 "--output: $WORK/dir: it is a directory" report "$WORK/results.json" --format markdown --output "$WORK/dir"
before 2 "--output: $WORK/missing/d.json: the directory" diff "$WORK/results.json" "$WORK/results.json" --output "$WORK/missing/d.json"
[ ! -e "$WORK/missing" ] && [ ! -e "$WORK/file.tmp" ] || fail "a refused check created something"
# A dump directory that does not exist yet is made by the run.
"$KBENCH" "${RUN[@]}" --dump "$WORK/new/dump" > /dev/null 2>&1 || fail "--dump into a new directory"
ls "$WORK/new/dump/"*.index.json > /dev/null || fail "the dump directory was not made"

# --- Fails later: /dev/full takes the open and refuses the bytes.
"$KBENCH" "${RUN[@]}" --format json --output "$FULL" > "$WORK/out" 2> "$WORK/err"
status=$?
[ $status -eq 3 ] || { cat "$WORK/err"; fail "--output "$FULL": exit $status, expected 3"; }
grep -q "kbench: error: cannot write $FULL: No space left on device; the report went to stdout instead" "$WORK/err" \
  || { cat "$WORK/err"; fail "--output "$FULL": message"; }
json_check "$WORK/out" 'doc["schema"] == "kbench.results/1" and doc["results"][0]["status"] == "ok" and not doc["interrupted"]'
[ -c "$FULL" ] || fail "$FULL is no longer a device"

# Fails mid-run on a regular file: a 4 KiB file size limit (SIGXFSZ ignored, so writes get EFBIG)
# stops the first rewrite of a multi-workload report; the run goes on, and all results reach stdout.
cat "$SPEC" > "$WORK/two.yaml"
sed 's/name: .*/name: second-workload/' "$SPEC" > "$WORK/two-b.yaml"
( trap '' XFSZ; ulimit -f 4; exec "$KBENCH" run "$WORK/two.yaml" "$WORK/two-b.yaml" --backends reference --iterations 2 \
  --warmups 0 --format json --output "$WORK/limited.json" 2> "$WORK/err" ) | cat > "$WORK/out"
status=${PIPESTATUS[0]}
[ $status -eq 3 ] || { cat "$WORK/err"; fail "file size limit: exit $status, expected 3"; }
grep -q "cannot write $WORK/limited.json: File too large" "$WORK/err" || { cat "$WORK/err"; fail "file size limit: message"; }
[ "$(grep -c "kbench: error: cannot write $WORK/limited.json" "$WORK/err")" -eq 2 ] \
  || { cat "$WORK/err"; fail "the failure should be told once during the run and once at the end"; }
json_check "$WORK/out" 'len(doc["results"]) == 2 and all(r["status"] == "ok" for r in doc["results"])'
ls -A "$WORK" | grep -q "\.limited\.json\.tmp\." && fail "a temporary file was left behind"

# A --dump file that cannot be written (its name taken by a directory): results whole, exit 3.
mkdir -p "$WORK/dump/cli-small-conv2d.weight.npy"
"$KBENCH" "${RUN[@]}" --format json --dump "$WORK/dump" > "$WORK/out" 2> "$WORK/err"
status=$?
[ $status -eq 3 ] || { cat "$WORK/err"; fail "--dump failure: exit $status, expected 3"; }
grep -q "kbench: error: --dump: cannot write $WORK/dump/cli-small-conv2d.weight.npy" "$WORK/err" || { cat "$WORK/err"; fail "--dump message"; }
json_check "$WORK/out" 'doc["results"][0]["status"] == "ok" and any("--dump of cli-small-conv2d is incomplete" in n for n in doc["notes"])'

# stdout itself on a full disk.
"$KBENCH" "${RUN[@]}" > /dev/full 2> "$WORK/err"
status=$?
[ $status -eq 3 ] || { cat "$WORK/err"; fail "stdout on /dev/full: exit $status, expected 3"; }
grep -q "cannot write to standard output" "$WORK/err" || fail "stdout on /dev/full: message"

# report and diff destinations that fail late.
"$KBENCH" report "$WORK/results.json" --html "$FULL" > "$WORK/out" 2> "$WORK/err"
[ $? -eq 3 ] || fail "report --html "$FULL": expected exit 3"
grep -q "cannot write $FULL: No space left on device" "$WORK/err" || fail "report --html "$FULL": message"
"$KBENCH" report "$WORK/results.json" --format csv --output "$FULL" > "$WORK/out" 2> "$WORK/err"
[ $? -eq 3 ] || fail "report --output "$FULL": expected exit 3"
grep -q "the rendering went to stdout instead" "$WORK/err" || fail "report --output "$FULL": message"
grep -q "cli-small-conv2d" "$WORK/out" || fail "report --output "$FULL": the csv is not on stdout"
"$KBENCH" diff "$WORK/results.json" "$WORK/results.json" --format json --output "$FULL" > "$WORK/out" 2> "$WORK/err"
status=$?
[ $status -eq 3 ] || { cat "$WORK/err"; fail "diff --output "$FULL": exit $status, expected 3"; }
json_check "$WORK/out" 'doc["schema"].startswith("kbench.diff/") and doc["base"]["source"].endswith("results.json")'
grep -q "cannot write $FULL: No space left on device; the diff went to stdout instead" "$WORK/err" || fail "diff message"

# Devices and pipes are written in place, once: /dev/null, and a pipe with a reader.
"$KBENCH" "${RUN[@]}" --format json --output "$NULL" > /dev/null 2>&1 || fail "--output "$NULL""
[ -c "$NULL" ] || fail "$NULL is no longer a device"
"$KBENCH" "${RUN[@]}" --format json --output >(cat > "$WORK/piped.json") > /dev/null 2>&1 || fail "--output to a pipe"
sleep 1
json_check "$WORK/piped.json" 'doc["results"][0]["status"] == "ok" and not doc["interrupted"]'
# A link to stdout, as /dev/stdout is (a private one: a kbench renaming over it replaces only this).
ln -s /proc/self/fd/1 "$WORK/stdout-link"
"$KBENCH" "${RUN[@]}" --format json --output "$WORK/stdout-link" 2> "$WORK/err" | cat > "$WORK/via-link.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || { cat "$WORK/err"; fail "--output through a link to stdout"; }
[ -L "$WORK/stdout-link" ] || fail "the link to stdout was replaced"
# Standard output's own pipe holds the one document, no text table after it (docs/cli.md).
json_check "$WORK/via-link.txt" 'doc["results"][0]["status"] == "ok"'
echo "ok"
