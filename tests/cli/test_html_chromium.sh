# The HTML report of the headline suite, rendered in headless Chromium: it loads without script errors,
# its inline self-check passes (one roofline point and one median mark for every verified, timed
# result, none for the others), a screenshot is taken, and a page with a point removed is caught.
# Chromium is required (Debian package `chromium`, installed by scripts/install-deps.sh): a skipped
# rendering check would pass unnoticed, so its absence is a failure.
source "$(dirname "$0")/lib.sh"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
[ -n "$CHROMIUM" ] || fail "chromium not found: install it (scripts/install-deps.sh) or set CHROMIUM=/path/to/chrome"

# chrome ARGS... URL: headless, no sandbox (CI runs as root), its own profile, a hard time limit.
chrome() {
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" \
    --window-size=1400,2000 "$@"
}
# selfcheck PAGE: prints the #kbench-selfcheck element of the page as the browser left it.
selfcheck() {
  chrome --dump-dom "file://$1" 2> "$WORK/dom.err" | grep -o '<div id="kbench-selfcheck"[^>]*>[^<]*'
}

# The headline suite as a GPU machine reports it (synthetic GPU results on a real run of the suite),
# beside a real reference-backend run of a small spec: two runs on one page. The tiny --time-budget
# makes the CPU reference skip every seed workload, on any machine.
"$KBENCH" run "$SRC"/workloads/kernelbench/level1/{050,076,077,084}_*.yaml --backends reference --format json --seed 1 --time-budget 0.01 --allow-empty --output "$WORK/seed.json" > /dev/null 2>&1 \
  || fail "kbench run headline suite"
python3 "$SRC/tests/cli/synthetic_results.py" add-gpu-results "$WORK/seed.json" "$WORK/suite.json"
"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference --iterations 5 --seed 2 --format json \
  --output "$WORK/small.json" > /dev/null 2>&1 || fail "kbench run small spec"
"$KBENCH" report "$WORK/suite.json" "$WORK/small.json" --html "$WORK/report.html" 2> /dev/null || fail "kbench report --html"

# What the page must show, counted from the documents themselves.
read -r results timed < <(python3 - "$WORK/suite.json" "$WORK/small.json" <<'PY'
import json, sys
results = timed = 0
for path in sys.argv[1:]:
    doc = json.load(open(path))
    described = {w["name"] for w in doc["workloads"]}
    for r in doc["results"]:
        results += 1
        # The CPU's results are set against no GPU roof (issue 38.4): listed, not plotted.
        timed += (r["status"] == "ok" and r["timing"] is not None and r["workload"] in described
                  and r.get("ran_on", "gpu") == "gpu")
print(results, timed)
PY
)
[ "$timed" -ge 12 ] || fail "expected at least 12 timed GPU results in the inputs, got $timed"

chrome --screenshot="$WORK/report.png" --enable-logging=stderr --v=0 "file://$WORK/report.html" > /dev/null 2> "$WORK/chrome.err" \
  || { tail -20 "$WORK/chrome.err"; fail "chromium could not render the page"; }
python3 - "$WORK/report.png" <<'PY' || fail "no usable screenshot"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1400, 2000), (width, height)
assert len(data) > 50_000, f"suspiciously small screenshot: {len(data)} bytes (a blank page?)"
PY
# Console messages reach stderr as "CONSOLE(line)] message"; none may be an error or a failed check.
if grep -E 'CONSOLE.*(Uncaught|Error|error|self-check failed)' "$WORK/chrome.err"; then fail "console errors on load"; fi

check=$(selfcheck "$WORK/report.html") || { cat "$WORK/dom.err" | tail -5; fail "no self-check element in the rendered DOM"; }
echo "$check"
echo "$check" | grep -q 'data-status="ok"' || fail "self-check did not pass: $check"

# At 800 px the page does not scroll sideways: wide tables scroll inside themselves, charts shrink.
check800=$(timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/profile" \
  --window-size=800,2000 --dump-dom "file://$WORK/report.html" 2>/dev/null | grep -o '<div id="kbench-selfcheck"[^>]*>')
python3 - "$check800" <<'PY' || fail "the page scrolls sideways at 800 px: $check800"
import re, sys
page = int(re.search(r'data-page-width="(\d+)"', sys.argv[1]).group(1))
window = int(re.search(r'data-window-width="(\d+)"', sys.argv[1]).group(1))
assert page <= window, (page, window)
PY
echo "$check" | grep -q "data-results=\"$results\"" || fail "expected $results results in the table: $check"
echo "$check" | grep -q "data-points=\"$timed\"" || fail "expected $timed roofline points: $check"

# The check can fail: drop one result's roofline point and the page must say so.
python3 - "$WORK/report.html" "$WORK/tampered.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
tampered, n = re.subn(r'<g class="roofline-point" data-result="[^"]*">.*?</g>', "", page, count=1)
assert n == 1
open(sys.argv[2], "w").write(tampered)
PY
check=$(selfcheck "$WORK/tampered.html")
echo "$check" | grep -q 'data-status="fail"' || fail "self-check missed a removed roofline point: $check"
echo "ok"
