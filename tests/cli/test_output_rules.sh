# One rule for every writer's --output (docs/cli.md, "Output destinations"): the check made before
# the run asks what the write will need, so what it accepts is written (kind 1); destinations written
# in place (pipes, /dev/stdout) get one whole document, and a reader that leaves early is exit 3
# with the report on stdout, not a silent SIGPIPE (kind 2); --output never replaces one of the
# command's inputs, and a rewrite keeps the file's mode (kind 3); merge and import fall back to
# stdout as run, diff and report do (kind 8).
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"
RUN0=(run "$SPEC" --backends reference --iterations 2 --warmups 0 --seed 5)
RUN=("${RUN0[@]}" --format json)
chmod 755 "$WORK"
"$KBENCH" "${RUN[@]}" --output "$WORK/results.json" > /dev/null 2>&1 || fail "a good run"
cp "$WORK/results.json" "$WORK/other.json"

# expect CODE COMMAND...: runs kbench, stdout in $WORK/out, stderr in $WORK/err, and checks the status.
expect() {
  local want="$1"; shift
  timeout 120 "$KBENCH" "$@" > "$WORK/out" 2> "$WORK/err"
  local got=$?
  [ "$got" -eq "$want" ] || { cat "$WORK/err"; fail "kbench $*: exit $got, expected $want"; }
}
refused() {  # refused PATTERN COMMAND...: exit 2 before any work, the error naming --output
  local pattern="$1"; shift
  expect 2 "$@"
  grep -q -- "$pattern" "$WORK/err" || { cat "$WORK/err"; fail "kbench $*: stderr lacks '$pattern'"; }
  [ ! -s "$WORK/out" ] || fail "kbench $*: printed a report"
}

# --- Kind 1: what the check accepts, the write can write.
# A file name at the file system's limit (255): the temporary file beside it must still fit.
long="$WORK/$(printf 'r%.0s' $(seq 1 250)).json"
expect 0 "${RUN[@]}" --output "$long"
json_check "$long" 'doc["results"][0]["status"] == "ok"'
[ "$(ls -A "$WORK" | grep -c '\.tmp\.')" -eq 0 ] || fail "a temporary file was left behind"
# A link to a file in a directory that does not exist: refused up front, not exit 3 after the run.
ln -s "$WORK/missing-dir/r.json" "$WORK/dangling.json"
refused "--output: $WORK/dangling.json: it is a symbolic link to $WORK/missing-dir/r.json, and the directory" \
  "${RUN[@]}" --output "$WORK/dangling.json"
# A link to a new file in a directory that exists is written through, as a shell's > would.
ln -s "$WORK/through-link.json" "$WORK/dangling-ok.json"
expect 0 "${RUN[@]}" --output "$WORK/dangling-ok.json"
[ -L "$WORK/dangling-ok.json" ] || fail "the link was replaced"
json_check "$WORK/through-link.json" 'doc["results"][0]["status"] == "ok"'
# A file with another hard link is written in place (as cp and > do), so both names see the result.
echo old > "$WORK/linked-a.json"
ln "$WORK/linked-a.json" "$WORK/linked-b.json"
expect 0 "${RUN[@]}" --output "$WORK/linked-a.json"
json_check "$WORK/linked-b.json" 'doc["results"][0]["status"] == "ok"'
# As another user (root here drops to nobody): a rename needs rights that writing does not.
as_nobody=()
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
  as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
fi
if [ ${#as_nobody[@]} -gt 0 ] && "${as_nobody[@]}" test -x "$KBENCH" -a -r "$SPEC"; then
  # In a sticky directory (as /tmp), another user's file that we may write cannot be renamed over.
  mkdir -m 1777 "$WORK/sticky"
  echo old > "$WORK/sticky/theirs.json" && chmod 666 "$WORK/sticky/theirs.json"
  "${as_nobody[@]}" "$KBENCH" "${RUN[@]}" --output "$WORK/sticky/theirs.json" > "$WORK/out" 2> "$WORK/err"
  status=$?
  [ $status -eq 0 ] || { cat "$WORK/err"; fail "sticky directory, another user's writable file: exit $status, expected 0"; }
  json_check "$WORK/sticky/theirs.json" 'doc["results"][0]["status"] == "ok"'
  [ "$(stat -c %u "$WORK/sticky/theirs.json")" -eq 0 ] || fail "the file changed owner"
  # A writable file in a directory we cannot create files in: written in place.
  mkdir -m 755 "$WORK/locked"
  echo old > "$WORK/locked/mine.json" && chown 65534 "$WORK/locked/mine.json"
  "${as_nobody[@]}" "$KBENCH" "${RUN[@]}" --output "$WORK/locked/mine.json" > "$WORK/out" 2> "$WORK/err"
  status=$?
  [ $status -eq 0 ] || { cat "$WORK/err"; fail "read-only directory, writable file: exit $status, expected 0"; }
  json_check "$WORK/locked/mine.json" 'doc["results"][0]["status"] == "ok"'
else
  echo "note: the other-user cases need root and setpriv; skipped"
fi

# --- Kind 2: in place, one whole document; a reader that leaves early is exit 3.
# /dev/stdout with stdout a file: the document alone, not a table written over it.
"$KBENCH" "${RUN[@]}" --output /dev/stdout > "$WORK/stdout-file.json" 2> "$WORK/err" || { cat "$WORK/err"; fail "--output /dev/stdout > file"; }
json_check "$WORK/stdout-file.json" 'doc["results"][0]["status"] == "ok"'
# ... a pipe: one document, not a document and a table.
"$KBENCH" "${RUN[@]}" --output /dev/stdout 2> "$WORK/err" | cat > "$WORK/stdout-pipe.json"
[ "${PIPESTATUS[0]}" -eq 0 ] || { cat "$WORK/err"; fail "--output /dev/stdout | cat"; }
json_check "$WORK/stdout-pipe.json" 'doc["results"][0]["status"] == "ok"'
# ... a log opened for appending keeps what it had: no truncation through /dev/stdout.
echo "earlier line" > "$WORK/log"
"$KBENCH" "${RUN0[@]}" --format csv --output /dev/stdout >> "$WORK/log" 2> "$WORK/err" || fail "--output /dev/stdout >> log"
head -1 "$WORK/log" | grep -q "earlier line" || fail "the log appended to lost its earlier content"
[ "$(grep -c "cli-small-conv2d" "$WORK/log")" -eq 1 ] || { cat "$WORK/log"; fail "expected one csv document in the log"; }
# diff and merge to /dev/stdout: the document alone.
"$KBENCH" diff "$WORK/results.json" "$WORK/other.json" --format json --output /dev/stdout > "$WORK/diff.json" 2> "$WORK/err" \
  || { cat "$WORK/err"; fail "diff --output /dev/stdout"; }
json_check "$WORK/diff.json" 'doc["schema"].startswith("kbench.diff/")'
# A reader that leaves early: a document past a pipe's 64 KiB, read 1 byte of.
BIG=(run "$SPEC" --backends reference --iterations 300 --warmups 0 --seed 5 --format json --axis batch=1,2,3,4,5,6,7,8,9,10,11,12)
"$KBENCH" "${BIG[@]}" --output >(head -c 1 > /dev/null) > "$WORK/out" 2> "$WORK/err"
status=$?
[ $status -eq 3 ] || { cat "$WORK/err"; fail "--output to a pipe whose reader left: exit $status, expected 3"; }
grep -q "the report went to stdout instead" "$WORK/err" || { cat "$WORK/err"; fail "the pipe's failure is not reported"; }
json_check "$WORK/out" 'len(doc["results"]) == 12'
# stdout itself read 1 byte of: exit 3 and a message, not a silent death by SIGPIPE.
"$KBENCH" "${BIG[@]}" 2> "$WORK/err" | head -c 1 > /dev/null
status=${PIPESTATUS[0]}
[ $status -eq 3 ] || { cat "$WORK/err"; fail "stdout to a reader that left: exit $status, expected 3"; }
grep -q "cannot write to standard output" "$WORK/err" || { cat "$WORK/err"; fail "stdout's broken pipe is not reported"; }

# --- Kind 3: never over an input; the mode kept.
cp "$SPEC" "$WORK/spec.yaml"
refused "--output: $WORK/spec.yaml: it is the input $WORK/spec.yaml" run "$WORK/spec.yaml" --backends reference --output "$WORK/spec.yaml"
cmp -s "$SPEC" "$WORK/spec.yaml" || fail "the spec was replaced"
mkdir -p "$WORK/specs/sub" && cp "$SPEC" "$WORK/specs/sub/inner.yaml"
refused "--output: $WORK/specs/sub/inner.yaml: it is the input" run "$WORK/specs" --backends reference --output "$WORK/specs/sub/inner.yaml"
ln -s "$WORK/spec.yaml" "$WORK/spec-link.yaml"
refused "it is the input" compare "$WORK/spec.yaml" --backends reference,reference --output "$WORK/spec-link.yaml"
refused "it is the results file" diff "$WORK/results.json" "$WORK/other.json" --output "$WORK/other.json"
refused "it is the results file" merge "$WORK/results.json" "$WORK/other.json" --output "$WORK/results.json"
refused "it is the results file" report "$WORK/results.json" --html "$WORK/results.json"
refused "it is the results file" report "$WORK/results.json" --format csv --output "$WORK/results.json"
printf 'MIOpenDriver conv -n 1 -c 3 -H 8 -W 8 -k 4 -y 3 -x 3\n' > "$WORK/commands.txt"
refused "it is the input" import miopen "$WORK/commands.txt" --output "$WORK/commands.txt"
json_check "$WORK/results.json" 'doc["schema"] == "kbench.results/1"'
# A rewrite keeps the file's mode (0600 stays private), for run and merge alike.
echo old > "$WORK/private.json" && chmod 600 "$WORK/private.json"
expect 0 "${RUN[@]}" --output "$WORK/private.json"
[ "$(stat -c %a "$WORK/private.json")" = 600 ] || fail "run widened a 0600 file to $(stat -c %a "$WORK/private.json")"
echo old > "$WORK/shared.json" && chmod 640 "$WORK/shared.json"
expect 0 merge "$WORK/results.json" --output "$WORK/shared.json"
[ "$(stat -c %a "$WORK/shared.json")" = 640 ] || fail "merge changed a 0640 file to $(stat -c %a "$WORK/shared.json")"
# A new file is made as open(0666) would make it, the umask applied.
( umask 077; "$KBENCH" "${RUN[@]}" --output "$WORK/new-private.json" > /dev/null 2>&1 ) || fail "run into a new file"
[ "$(stat -c %a "$WORK/new-private.json")" = 600 ] || fail "a new file ignored the umask"

# --- Kind 8: merge and import fall back to stdout when --output fails late.
expect 3 merge "$WORK/results.json" --output /dev/full
grep -q "cannot write /dev/full: No space left on device; the merged document went to stdout instead" "$WORK/err" \
  || { cat "$WORK/err"; fail "merge: message"; }
json_check "$WORK/out" 'doc["schema"] == "kbench.results/1" and len(doc["results"]) == 1'
expect 3 import miopen "$WORK/commands.txt" --output /dev/full
grep -q "the spec went to stdout instead" "$WORK/err" || { cat "$WORK/err"; fail "import miopen: message"; }
grep -q "out_channels: 4" "$WORK/out" || { cat "$WORK/out"; fail "import miopen: the spec is not on stdout"; }
expect 3 import kernelbench "$SRC/tests/data/import/50_conv_standard_2D__alexnet_first_layer.py" --reader stub --output /dev/full
grep -q "op: conv" "$WORK/out" || { cat "$WORK/out"; fail "import kernelbench: the spec is not on stdout"; }
echo "ok"
