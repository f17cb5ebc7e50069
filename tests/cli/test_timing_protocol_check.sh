# scripts/timing-protocol-check.sh (gpu-check's first step): four runs of one spec, cold and hot,
# eager and graph, each its own document, and a table of their medians with one column per
# configuration. On the CPU the reference stands in for cuda and cudnn (its timing ignores the
# switches, but the documents and the table are the same).
source "$(dirname "$0")/lib.sh"
cat >"$WORK/tiny.yaml" <<'YAML'
name: tiny
op: conv
dtype: fp32
input: [1, 2, 8, 8]
out_channels: 3
kernel: 3
YAML
KBENCH_PROTOCOL_BACKENDS=reference KBENCH_PROTOCOL_BUDGET=1 \
  bash "$SRC/scripts/timing-protocol-check.sh" "$KBENCH" "$WORK/out" "$WORK/tiny.yaml" >"$WORK/log" 2>&1
rc=$?
cat "$WORK/log"
[[ $rc == 0 ]] || fail "timing-protocol-check exited $rc"
for config in cold cold-graph hot hot-graph; do
  json_check "$WORK/out/protocol-$config.json" \
    "doc['settings']['cold'] == ('$config'.startswith('cold')) and doc['settings']['graph'] == ('$config'.endswith('graph'))"
done
table="$WORK/out/protocol.md"
head -1 "$table" | grep -q '| cold | cold-graph | hot | hot-graph | graph/eager (cold) | hot/cold (eager) |' ||
  fail "the table does not have one column per configuration"
# One row per math mode of the one backend, with a median in every configuration.
rows=$(grep -c '^| tiny | ' "$table")
[[ $rows == 2 ]] || fail "expected 2 rows (fp32, tf32), got $rows"
grep '^| tiny | ' "$table" | grep -q ' us | .* us | .* us | .* us | ' || fail "a configuration has no median"
echo "PASS"
