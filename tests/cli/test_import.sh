# kbench import: KernelBench problem files and MIOpenDriver lines become a spec that kbench run reads
# as written (the seeds' fixtures give the shipped seeds' problems); what it cannot read is exit 2
# naming the file, line and what; notes on what it ignored go to stderr. --devices without a GPU.
source "$(dirname "$0")/lib.sh"
FIX="$SRC/tests/data/import"

"$KBENCH" import kernelbench "$FIX"/50_*.py "$FIX"/76_*.py "$FIX"/77_*.py "$FIX"/84_*.py --name-prefix kb- \
  --output "$WORK/seeds.yaml" 2>"$WORK/err.txt" || fail "import kernelbench seeds: $(cat "$WORK/err.txt")"
grep -q "imported 4 workloads into" "$WORK/err.txt" || fail "the import must say what it wrote"
grep -q "^- name: kb-76_conv_standard_1d_dilated_strided$" "$WORK/seeds.yaml" || fail "names come from the file names"
# The imported problems are the shipped seeds' (plan describes each problem in full).
"$KBENCH" plan "$WORK/seeds.yaml" --backends reference --format json >"$WORK/imported.json" 2>/dev/null \
  || fail "kbench cannot read the imported spec"
"$KBENCH" plan "$SRC"/workloads/kernelbench/level1/{050,076,077,084}_*.yaml --backends reference --format json \
  >"$WORK/shipped.json" 2>/dev/null || fail "plan of the shipped seeds"
python3 - "$WORK/imported.json" "$WORK/shipped.json" <<'PY' || fail "the imported seeds are not the shipped seeds' problems"
import json, sys
def problems(path):
    doc = json.load(open(path))
    return [p["problem"] for p in doc["plans"]]
a, b = problems(sys.argv[1]), problems(sys.argv[2])
assert len(a) == 4 and a == b, (a, b)
PY

# A refusal: file, line and the argument; nothing on stdout, exit 2 (by whichever reader auto picks).
"$KBENCH" import kernelbench "$FIX/refused_reflect_padding.py" >"$WORK/out.txt" 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "a module it cannot read must exit 2"
grep -q "refused_reflect_padding.py:9: self.conv: padding_mode 'reflect'; kbench pads with zeros only" "$WORK/err.txt" \
  || fail "the refusal must name file, line and argument: $(cat "$WORK/err.txt")"
[[ ! -s "$WORK/out.txt" ]] || fail "a refused import must print no spec"

# MIOpenDriver lines from stdin: a small one runs on the reference as written; ignored flags are noted.
printf '%s\n' "conv -n 2 -c 8 -H 12 -W 10 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 2 -F 1 -t 1" \
  "conv -n 2 -c 8 -H 12 -W 10 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 2 -F 1" \
  "conv -n 1 -c 4 -H 6 -W 6 -k 4 -y 3 -x 3 -m trans -u 2 -v 2 -Y 1 -X 1 -F 4" |
  "$KBENCH" import miopen - --name-prefix mi- >"$WORK/miopen.yaml" 2>"$WORK/err.txt" || fail "import miopen: $(cat "$WORK/err.txt")"
grep -q "note: -:1: ignored -t 1" "$WORK/err.txt" || fail "-t must be noted as ignored"
grep -q "^  pass: backward_weights$" "$WORK/miopen.yaml" || fail "-F 4 is the backward_weights pass"
grep -q "^  count: 2$" "$WORK/miopen.yaml" || fail "identical lines are one workload counted twice"
"$KBENCH" run "$WORK/miopen.yaml" --backends reference --seed 3 --iterations 2 --format json --output "$WORK/run.json" \
  >"$WORK/run.txt" 2>/dev/null || fail "kbench run on the imported MIOpen spec"
json_check "$WORK/run.json" 'doc["workloads"][0]["name"] == "mi-conv2d-n2-c8-12x10-k4-3x3-p1-g2" and doc["workloads"][0]["count"] == 2'
json_check "$WORK/run.json" 'doc["results"][0]["status"] == "ok"'
json_check "$WORK/run.json" 'doc["workloads"][1]["problem"]["pass"] == "backward_weights" and doc["workloads"][1]["name"].endswith(".backward_weights") and doc["results"][1]["status"] == "ok"'
grep -q "suite total, each workload's median x its count" "$WORK/run.txt" || fail "the text report must show the weighted total"
echo "conv -n 2 -Q 1" >"$WORK/bad.txt"
"$KBENCH" import miopen "$WORK/bad.txt" 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "an unknown MIOpen flag must exit 2"
grep -q "bad.txt:1:11: unknown MIOpenDriver flag -Q" "$WORK/err.txt" || fail "the refusal must name the flag: $(cat "$WORK/err.txt")"
"$KBENCH" import kernelbench "$WORK/missing.py" 2>/dev/null
[[ $? == 2 ]] || fail "a missing file must exit 2"
"$KBENCH" import onnx "$FIX/refused_reflect_padding.py" 2>/dev/null
[[ $? == 2 ]] || fail "an unknown source must exit 2"
"$KBENCH" import kernelbench "$FIX/keyword_arguments_separable.py" --name-prefix "-x" 2>/dev/null
[[ $? == 2 ]] || fail "a prefix that cannot start a name must exit 2"

# --devices without a GPU: all finds none and says so; 0 runs as today; a malformed list names the flag.
"$KBENCH" run "$WORK/miopen.yaml" --backends reference --devices all --iterations 2 >/dev/null 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "--devices all without a GPU must exit 2"
grep -q "kbench: error: --devices all: no CUDA device found" "$WORK/err.txt" || fail "--devices all must say it found none"
"$KBENCH" run "$WORK/miopen.yaml" --backends reference --devices 0 --seed 3 --iterations 2 --format json \
  --output "$WORK/dev0.json" >/dev/null 2>&1 || fail "--devices 0 must run as today"
json_check "$WORK/dev0.json" 'doc["results"][0]["status"] == "ok"'
"$KBENCH" compare "$WORK/miopen.yaml" --backends reference,cudnn --devices 0,x >/dev/null 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "a malformed --devices must exit 2"
grep -q -- "--devices: got '0,x'" "$WORK/err.txt" || fail "the refusal must name --devices"
echo "PASS"
