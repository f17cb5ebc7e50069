# scripts/import-torchvision.py: resnet18 traced on meta tensors is 20 convolution layers, written as
# workloads with counts that kbench reads. Skips (77) where /usr/bin/python3 cannot import torchvision
# (scripts/install-deps.sh does not install it: Debian's package pulls in all of torch).
source "$(dirname "$0")/lib.sh"
if ! /usr/bin/python3 -c "import torchvision" >/dev/null 2>&1; then
  echo "SKIP: torchvision is not importable by /usr/bin/python3"
  exit 77
fi
/usr/bin/python3 "$SRC/scripts/import-torchvision.py" resnet18 --output "$WORK/resnet18.yaml" || fail "import resnet18"
"$KBENCH" plan "$WORK/resnet18.yaml" --backends reference >/dev/null 2>&1 \
  || fail "kbench cannot read the imported spec"
total=$(grep -E '^  count: ' "$WORK/resnet18.yaml" | awk '{s += $2} END {print s}')
[[ "$total" == 20 ]] || fail "resnet18 has 20 convolution layers, the counts add up to $total"
grep -q "^- name: resnet18-000-conv1$" "$WORK/resnet18.yaml" || fail "the stem is named by its module path"
/usr/bin/python3 "$SRC/scripts/import-torchvision.py" no_such_model >/dev/null 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "an unknown model must exit 2"
grep -q "no model 'no_such_model'" "$WORK/err.txt" || fail "the refusal must name the model"
/usr/bin/python3 "$SRC/scripts/import-torchvision.py" resnt18 >/dev/null 2>"$WORK/err.txt"
grep -q "did you mean 'resnet18'" "$WORK/err.txt" || fail "no suggestion for resnt18: $(cat "$WORK/err.txt")"

# Nested models: segmentation (dilated convolutions), without downloading the backbone's weights.
/usr/bin/python3 "$SRC/scripts/import-torchvision.py" fcn_resnet50 --size 64 --output "$WORK/fcn.yaml" 2>"$WORK/err.txt" ||
  fail "import fcn_resnet50: $(cat "$WORK/err.txt")"
grep -q "^  dilation: [24]$" "$WORK/fcn.yaml" || fail "fcn_resnet50's dilated convolutions are missing"
"$KBENCH" plan "$WORK/fcn.yaml" --backends reference >/dev/null 2>&1 || fail "kbench cannot read fcn_resnet50's spec"

# The model's refusal of the input is one line and exit 2, not a traceback.
for args in "vit_b_16 --size 256" "resnet18 --channels 1"; do
  /usr/bin/python3 "$SRC/scripts/import-torchvision.py" $args >/dev/null 2>"$WORK/err.txt"
  status=$?
  [[ $status == 2 ]] || fail "$args: exit $status, expected 2: $(cat "$WORK/err.txt")"
  [[ $(wc -l < "$WORK/err.txt") == 1 ]] || fail "$args: not one line: $(cat "$WORK/err.txt")"
  grep -q "^import-torchvision: error: .* refuses the input" "$WORK/err.txt" || fail "$args: $(cat "$WORK/err.txt")"
done
echo "PASS"
