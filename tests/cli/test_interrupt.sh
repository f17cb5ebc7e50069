# SIGINT mid-run: exit 130 and the --output file is a valid document of what finished, marked interrupted.
# The first result samples for the 2 s budget and is written; the signal then lands in the second,
# whose sampling loop stops early and keeps what it has.
source "$(dirname "$0")/lib.sh"
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" "$SRC/tests/data/cli/slow_conv3d.yaml" --backends reference \
  --iterations 100000 --time-budget 2 --format json --output "$WORK/out.json" > /dev/null 2> "$WORK/err.txt" &
pid=$!
for _ in $(seq 1 100); do [ -f "$WORK/out.json" ] && break; sleep 0.1; done
[ -f "$WORK/out.json" ] || { kill -9 $pid; fail "no partial output after 10 s"; }
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "exit $status, expected 130"
json_check "$WORK/out.json" 'doc["interrupted"] == True and doc["results"][0]["status"] == "ok"'
json_check "$WORK/out.json" 'len(doc["results"]) <= 2'
grep -q "interrupted" "$WORK/err.txt" || fail "no word of the interruption on stderr"
echo "ok"
