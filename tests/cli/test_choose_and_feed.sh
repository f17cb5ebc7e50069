# Choosing and feeding workloads: --filter REGEX over names (google/benchmark's --benchmark_filter; a
# leading '-' keeps the others), `kbench run -` reading a spec from stdin (so `kbench import ... | kbench run -`
# works), and a folder with several bad specs reported whole in one exit 2.
source "$(dirname "$0")/lib.sh"
mkdir "$WORK/specs"
cp "$SRC/tests/data/cli/small_conv2d.yaml" "$WORK/specs/a.yaml"
cat > "$WORK/specs/b.yaml" <<'YAML'
name: other-depthwise
op: conv
dtype: fp32
input: [1, 4, 9, 9]
out_channels: 4
kernel: 3
groups: 4
YAML

"$KBENCH" run "$WORK/specs" --backends reference --iterations 2 --filter 'depthwise$' --format json \
  --output "$WORK/f.json" > /dev/null 2>&1 || fail "--filter: exit $?"
json_check "$WORK/f.json" '[w["name"] for w in doc["workloads"]] == ["other-depthwise"]'
"$KBENCH" run "$WORK/specs" --backends reference --iterations 2 --filter '-depthwise' --format json \
  --output "$WORK/nf.json" > /dev/null 2>&1 || fail "--filter -: exit $?"
json_check "$WORK/nf.json" '[w["name"] for w in doc["workloads"]] == ["cli-small-conv2d"]'
"$KBENCH" run "$WORK/specs" --filter 'nothing-like-this' > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "a filter matching nothing: expected exit 2"
grep -q "^kbench: error: --filter 'nothing-like-this': matches none of the 2 workloads" "$WORK/err.txt" ||
  fail "no-match message: $(cat "$WORK/err.txt")"
"$KBENCH" run "$WORK/specs" --filter '(' > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "a bad regex: expected exit 2"
grep -q "^kbench: error: --filter '(': not a regular expression" "$WORK/err.txt" || fail "bad regex: $(cat "$WORK/err.txt")"
"$KBENCH" plan "$WORK/specs" --backends reference --filter 'small' > "$WORK/plan.txt" 2>&1 || fail "plan --filter: exit $?"
grep -q "other-depthwise" "$WORK/plan.txt" && fail "plan --filter kept a workload it should not"

# stdin.
"$KBENCH" run - --backends reference --iterations 2 --format json --output "$WORK/stdin.json" \
  < "$SRC/tests/data/cli/small_conv2d.yaml" > /dev/null 2>&1 || fail "run - < spec: exit $?"
json_check "$WORK/stdin.json" 'doc["workloads"][0]["name"] == "cli-small-conv2d" and doc["results"][0]["status"] == "ok"'
echo "./bin/MIOpenDriver conv -n 1 -c 4 -H 9 -W 9 -k 4 -y 3 -x 3 -p 1 -q 1 -F 1" > "$WORK/cmds.txt"
"$KBENCH" import miopen "$WORK/cmds.txt" 2>/dev/null |
  "$KBENCH" run - --backends reference --iterations 2 --format json --output "$WORK/miopen.json" > /dev/null 2>&1 ||
  fail "import miopen | run -: exit $?"
json_check "$WORK/miopen.json" 'len(doc["workloads"]) == 1 and doc["results"][0]["status"] == "ok"'
printf 'name: [broken\n' | "$KBENCH" run - --backends reference > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "a bad spec on stdin: expected exit 2"
grep -q "<stdin>:" "$WORK/err.txt" || fail "a bad spec on stdin is not named <stdin>: $(cat "$WORK/err.txt")"

# Several bad specs in a folder: all of them in one run.
printf 'name: bad-one\nop: conv\ndtype: fp32\ninput: [1, 4, 9]\nout_channels: 4\nkernel: 3\nstrdie: 1\n' > "$WORK/specs/c.yaml"
printf 'name: bad-two\nop: conv\ndtype: fp32\ninput: [1, 4, 9]\nout_channels: 0\nkernel: 3\n' > "$WORK/specs/d.yaml"
"$KBENCH" run "$WORK/specs" --backends reference > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "bad specs: expected exit 2"
grep -q "^kbench: error: 2 workload specs could not be read:" "$WORK/err.txt" || fail "no count: $(cat "$WORK/err.txt")"
grep -q "c.yaml:7:" "$WORK/err.txt" && grep -q "d.yaml:5:" "$WORK/err.txt" || fail "not both files: $(cat "$WORK/err.txt")"
echo "ok"
