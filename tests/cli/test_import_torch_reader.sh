# `kbench import kernelbench` reading files by running them in torch (Debian's python3-torch): the
# fixtures read the same in torch and against kbench's torch stub (all but the descriptions); files only
# torch can read (nn.Sequential with a ReLU, torch.sigmoid, channels last, half precision) read as PyTorch
# runs them, and the stub refuses them naming what it does not model; a file that raises names its line
# whichever runs it; auto reads by the stub where the Python has no torch and says so; --reader torch
# there is exit 2. Skips (77) without torch.
source "$(dirname "$0")/lib.sh"
require_torch
export KBENCH_PYTHON=$PY
fixtures="$SRC/tests/data/import"
without_descriptions() { grep -v '^  description: ' "$1" | grep -v '^# Written by'; }

for file in "$fixtures"/*.py; do
  case "$file" in *refused_*) continue ;; esac
  "$KBENCH" import kernelbench "$file" --reader torch --output "$WORK/torch.yaml" 2>"$WORK/torch.err" ||
    { cat "$WORK/torch.err"; fail "--reader torch $file: exit $?"; }
  "$KBENCH" import kernelbench "$file" --reader stub --output "$WORK/stub.yaml" 2>/dev/null ||
    fail "--reader stub $file: exit $?"
  diff <(without_descriptions "$WORK/torch.yaml") <(without_descriptions "$WORK/stub.yaml") ||
    fail "$file reads differently in torch and against the stub"
  grep -q "read by running its Model in torch" "$WORK/torch.err" || { cat "$WORK/torch.err"; fail "no note of the reader"; }
done

# What only running the file reads.
traced="$fixtures/traced"
"$KBENCH" import kernelbench "$traced/functional_forward.py" "$traced/sequential_between.py" --output "$WORK/traced.yaml" \
  2>"$WORK/traced.err" || { cat "$WORK/traced.err"; fail "import of the traced fixtures: exit $?"; }
python3 - "$WORK/traced.yaml" <<'PY' || { cat "$WORK/traced.yaml"; fail "the traced workloads are not as expected"; }
import re, sys
text = open(sys.argv[1]).read()
docs = [d for d in text.split("\n- ")[1:]]
def field(doc, key):
    m = re.search(r"^\s*" + key + r": (.*)$", doc, re.M)
    return m.group(1) if m else None
assert len(docs) == 3, docs
f, s0, s2 = docs
assert f.startswith("name: functional_forward\n"), f
assert field(f, "input") == "[64, 64, 4096, 4096]" and field(f, "out_channels") == "128", f
assert field(f, "stride") == "[2, 1]" and field(f, "padding") == "1" and field(f, "groups") == "4", f
assert "F.conv2d in forward of the Model in functional_forward.py" in f, f
assert s0.startswith("name: sequential_between-features.0\n") and field(s0, "dtype") == "fp16", s0
assert field(s0, "op") == "conv" and field(s0, "kernel") == "[1, 3, 3]" and field(s0, "padding") == "[0, 1, 1]", s0
assert s2.startswith("name: sequential_between-features.2\n") and field(s2, "op") == "conv_transpose", s2
assert field(s2, "input") == "[2, 8, 6, 10, 12]" and field(s2, "groups") == "2" and field(s2, "out_channels") == "4", s2
PY
# A model run channels last: layout nhwc on both layers (the first's output keeps the memory format).
"$KBENCH" import kernelbench "$traced/channels_last.py" --reader torch --output "$WORK/last.yaml" 2>"$WORK/last.err" ||
  { cat "$WORK/last.err"; fail "import of channels_last.py: exit $?"; }
[ "$(grep -c '^  layout: nhwc$' "$WORK/last.yaml")" -eq 2 ] && [ "$(grep -c '^  dtype: bf16$' "$WORK/last.yaml")" -eq 2 ] ||
  { cat "$WORK/last.yaml"; fail "channels_last.py: expected two bf16 nhwc workloads"; }
# What the stub does not model is refused by name at its line, not guessed.
"$KBENCH" import kernelbench "$traced/channels_last.py" --reader stub >/dev/null 2>"$WORK/stub.err" &&
  fail "the stub should not read channels_last.py (else this test shows nothing)"
grep -q "channels_last.py:16: torch.relu is not modelled by kbench's torch-free reader" "$WORK/stub.err" ||
  { cat "$WORK/stub.err"; fail "the stub's refusal does not name torch.relu at its line"; }

# A file that raises: its line and Python's error, the same in torch and against the stub.
for reader in torch stub; do
  "$KBENCH" import kernelbench "$traced/fails_in_get_inputs.py" --reader $reader >/dev/null 2>"$WORK/raises.err"
  [ $? -eq 2 ] || { cat "$WORK/raises.err"; fail "--reader $reader: a file that raises must exit 2"; }
  grep -q "fails_in_get_inputs.py:15: RuntimeError: this problem needs a GPU$" "$WORK/raises.err" ||
    { cat "$WORK/raises.err"; fail "--reader $reader: the raising file's error is not named at its line"; }
done

# A Python without torch (a torch package on PYTHONPATH that cannot be imported): auto reads by the stub
# and says why; --reader torch refuses, saying what to do.
mkdir -p "$WORK/no-torch/torch"
echo 'raise ImportError("torch hidden by the test")' >"$WORK/no-torch/torch/__init__.py"
file="$fixtures/keyword_arguments_separable.py"
PYTHONPATH="$WORK/no-torch" "$KBENCH" import kernelbench "$file" >"$WORK/auto.yaml" 2>"$WORK/auto.err" ||
  { cat "$WORK/auto.err"; fail "auto without torch: exit $?"; }
grep -q "read by running its Model against kbench's torch stub, .*no torch in .*torch hidden by the test" "$WORK/auto.err" ||
  { cat "$WORK/auto.err"; fail "auto: no note of the stub and why"; }
PYTHONPATH="$WORK/no-torch" "$KBENCH" import kernelbench "$file" --reader torch >/dev/null 2>"$WORK/torch.err"
[ $? -eq 2 ] && grep -q -- "--reader torch: no torch in .*read without torch with --reader stub" "$WORK/torch.err" ||
  { cat "$WORK/torch.err"; fail "--reader torch without torch"; }
echo "ok"
