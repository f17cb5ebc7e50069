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
echo "PASS"
