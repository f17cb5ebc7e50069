# The text report fits the terminal: $COLUMNS (or the terminal's width) sets it, at 80 and at 120 no line
# is wider, and a CPU's rate is scaled ("593M"), never "0.000593" TFLOP/s. Files keep 100 columns.
source "$(dirname "$0")/lib.sh"
spec="$WORK/long-names.yaml"
cat > "$spec" <<'YAML'
- name: resnet50-001-layer1.0.downsample.0-a-rather-long-imported-layer-name
  op: conv
  dtype: fp32
  input: [1, 8, 14, 14]
  out_channels: 8
  kernel: 1
- name: resnet50-002-layer2.0.downsample.0-a-rather-long-imported-layer-name
  op: conv
  dtype: fp32
  input: [1, 8, 14, 14]
  out_channels: 8
  kernel: 3
  padding: 1
YAML
for width in 80 120; do
  COLUMNS=$width "$KBENCH" run "$spec" --backends reference --iterations 3 > "$WORK/out-$width.txt" 2>/dev/null ||
    fail "COLUMNS=$width: exit $?"
  max_width "$WORK/out-$width.txt" $width
  grep -q "FLOP/s" "$WORK/out-$width.txt" || fail "COLUMNS=$width: no rate column"
done
grep -E "^  reference " "$WORK/out-80.txt" | grep -qE " 0\.0[0-9]+ " && fail "an unscaled rate: $(grep "^  reference " "$WORK/out-80.txt")"
# Into a file: the default 100 columns, whatever $COLUMNS says.
COLUMNS=80 "$KBENCH" run "$spec" --backends reference --iterations 3 --output "$WORK/report.txt" > /dev/null 2>&1 ||
  fail "--output: exit $?"
max_width "$WORK/report.txt" 100
echo "ok"
