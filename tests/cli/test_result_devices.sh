# Every report says where each result ran and how it was timed: the CPU reference's results are named as
# the host CPU's (model, threads) under the CPU protocol, never under the GPU's ("L2 flushed", "stream
# launches"), and get no ×floor against the GPU's roofs, in every format; the HTML report draws no host
# result on a GPU's roofline (issue 38, point 4).
source "$(dirname "$0")/lib.sh"
small="$SRC/tests/data/cli/small_conv2d.yaml"

"$KBENCH" run "$small" --backends reference --iterations 3 --seed 5 --format json --output "$WORK/run.json" \
  > "$WORK/run.txt" 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "run: exit $?"; }
json_check "$WORK/run.json" 'doc["results"][0]["ran_on"] == "cpu" and doc["results"][0]["headroom"] is None'
json_check "$WORK/run.json" '"thread" in doc["host_cpu"]'

# Text: the header names the CPU and its protocol, the table says it ran there, the row has no ×floor.
grep -q "^cpu  " "$WORK/run.txt" || fail "no cpu line in the header: $(head -12 "$WORK/run.txt")"
grep -q "^cpu timing  *CPU clock" "$WORK/run.txt" || fail "no CPU protocol in the header: $(head -12 "$WORK/run.txt")"
grep -q "L2 flushed\|stream launches" "$WORK/run.txt" && fail "a CPU-only run is described with the GPU protocol"
grep -q "^  on CPU: .*thread" "$WORK/run.txt" || fail "the table does not name the CPU it ran on"
row=$(grep "^  reference" "$WORK/run.txt")
[ -n "$row" ] || fail "no reference row"
case "$row" in *×*) fail "a CPU result has a ×floor against a GPU's floor: $row" ;; esac

# CSV and Markdown from the same document.
"$KBENCH" report "$WORK/run.json" --format csv --output "$WORK/run.csv" || fail "report csv: exit $?"
python3 - "$WORK/run.csv" <<'PY' || fail "csv: ran_on/device"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows[0]["ran_on"] == "cpu" and "thread" in rows[0]["device"] and rows[0]["headroom"] == "", rows[0]
PY
"$KBENCH" report "$WORK/run.json" --format markdown --output "$WORK/run.md" || fail "report markdown: exit $?"
grep -q "^on CPU: " "$WORK/run.md" || fail "markdown table does not name the CPU"
grep -q "^- cpu timing: CPU clock" "$WORK/run.md" || fail "markdown header lacks the CPU protocol"

# HTML: the host result is listed as the CPU's, not drawn on the GPU's roofline.
"$KBENCH" report "$WORK/run.json" --html "$WORK/run.html" > /dev/null || fail "report --html: exit $?"
grep -q 'class="roofline-point"' "$WORK/run.html" && fail "a CPU result is drawn under the GPU's roofs"
grep -q "On the host's CPU" "$WORK/run.html" || fail "the HTML does not list the host results as the CPU's"

# compare: a device line per kind, the CPU column marked, no ×floor for it.
if built_with_cuda && ! "$KBENCH" info 2>/dev/null | grep -q "^device 0:"; then
  "$KBENCH" compare "$small" --backends reference,cuda --iterations 3 > "$WORK/cmp.txt" 2> /dev/null
  grep -q "^on CPU: " "$WORK/cmp.txt" || fail "compare names no CPU: $(cat "$WORK/cmp.txt")"
  grep -q "^on GPU: " "$WORK/cmp.txt" || fail "compare names no GPU: $(cat "$WORK/cmp.txt")"
  grep -q "reference (CPU)" "$WORK/cmp.txt" || fail "compare's CPU column is not marked"
  grep "cli-small-conv2d" "$WORK/cmp.txt" | grep -q "×" && fail "compare sets a CPU time against the GPU floor"
fi
echo "ok"
