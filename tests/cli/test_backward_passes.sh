# The backward passes end to end on the CPU: a spec's `pass:` list runs as one workload per pass, each
# verified against the fp64 reference and recorded with its pass; --passes overrides a spec's passes;
# --dump writes grad_output, the computed gradient and grad_bias by their roles; plan and bad input.
source "$(dirname "$0")/lib.sh"
SPEC="$SRC/workloads/examples-backward/conv_transpose2d_strided.yaml"
"$KBENCH" run "$SPEC" --backends reference --iterations 3 --seed 5 --format json --output "$WORK/run.json" \
  --dump "$WORK/dump" > /dev/null 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "kbench run of backward passes"; }
json_check "$WORK/run.json" '[w["name"] for w in doc["workloads"]] == ["example-backward-conv-transpose2d-strided.backward_data", "example-backward-conv-transpose2d-strided.backward_weights"]'
json_check "$WORK/run.json" '[w["problem"]["pass"] for w in doc["workloads"]] == ["backward_data", "backward_weights"]'
json_check "$WORK/run.json" '[r["pass"] for r in doc["results"]] == ["backward_data", "backward_weights"]'
json_check "$WORK/run.json" 'all(r["status"] == "ok" and r["verification"]["full"] for r in doc["results"])'
# Each pass's error bound sums its longest reduction: C_out/g x taps for grad_input; for grad_weight N x H_in x
# W_in, but grad_bias sums N x H_out x W_out, longer here.
json_check "$WORK/run.json" '[r["verification"]["error_bound"]["reduction_length"] for r in doc["results"]] == [16 * 16, 2 * 33 * 33]'
# No bias term in grad_input: its FLOPs are the forward's less one add per output element.
json_check "$WORK/run.json" 'doc["workloads"][0]["flops"] + 2 * 16 * 33 * 33 == doc["workloads"][1]["flops"]'

index="$WORK/dump/example-backward-conv-transpose2d-strided.backward_weights.index.json"
json_check "$index" 'sorted(f["role"] for f in doc["files"]) == ["grad_output", "output:reference:fp32", "output:reference:fp32:grad_bias", "reference", "reference:grad_bias", "x"]'
json_check "$index" '{f["role"]: f["shape"] for f in doc["files"]}["reference"] == [32, 16, 4, 4] and {f["role"]: f["shape"] for f in doc["files"]}["reference:grad_bias"] == [16]'
json_check "$index" '{f["role"]: f["shape"] for f in doc["files"]}["grad_output"] == [2, 16, 33, 33] and doc["pass"] == "backward_weights"'
json_check "$WORK/dump/example-backward-conv-transpose2d-strided.backward_data.index.json" \
  'sorted(f["role"] for f in doc["files"]) == ["grad_output", "output:reference:fp32", "reference", "weight"]'

# list and the text report name the gradient each pass computes.
"$KBENCH" list "$SPEC" > "$WORK/list.txt" 2>&1 || fail "kbench list of backward passes"
grep -q "computes grad_weight \[32, 16, 4, 4\] + grad_bias \[16\]" "$WORK/list.txt" || { cat "$WORK/list.txt"; fail "list: grad_weight"; }
grep -q "computes grad_input \[2, 32, 16, 16\]" "$WORK/list.txt" || fail "list: grad_input"
"$KBENCH" run "$SPEC" --backends reference --iterations 2 --passes backward_data > "$WORK/text.txt" 2>&1 \
  || fail "kbench run --passes backward_data"
grep -Eq "computes +grad_input \[2, 32, 16, 16\] \(backward_data\)" "$WORK/text.txt" || { cat "$WORK/text.txt"; fail "text report: computes"; }

# --passes replaces the spec's list; one pass keeps the name.
"$KBENCH" run "$SPEC" --backends reference --iterations 3 --passes forward --format json --output "$WORK/fwd.json" \
  > /dev/null 2>&1 || fail "kbench run --passes forward"
json_check "$WORK/fwd.json" '[(w["name"], w["problem"]["pass"]) for w in doc["workloads"]] == [("example-backward-conv-transpose2d-strided", "forward")]'
"$KBENCH" plan "$SRC/workloads/kernelbench/level1-backward" --backends reference --passes backward_weights --format json \
  > "$WORK/plan.json" 2> "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "kbench plan --passes"; }
json_check "$WORK/plan.json" 'len(doc["plans"]) == 4 and all(p["problem"].endswith(" backward_weights") and "." not in p["workload"] for p in doc["plans"])'

"$KBENCH" run "$SPEC" --backends reference --passes backward_filter > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "an unknown --passes entry should exit 2"
grep -q -- "--passes: unknown pass 'backward_filter' (did you mean 'backward_weights'?)" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "--passes error"; }
sed 's/pass: \[backward_data, backward_weights\]/pass: [backward_data, backward_data]/' "$SPEC" > "$WORK/bad.yaml"
"$KBENCH" run "$WORK/bad.yaml" --backends reference > /dev/null 2> "$WORK/err.txt"
[ $? -eq 2 ] || fail "a repeated pass should exit 2"
grep -q "bad.yaml:6:23: pass\[1\]: backward_data is listed twice" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "error does not name the pass's place"; }
echo "ok"
