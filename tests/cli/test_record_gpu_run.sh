# scripts/record-gpu-run.py: a gpu-check visit's seeds.json, variants.json, examples.json and protocol-*.json filed under the names
# docs/results/README.md asks for (date, GPU, commit), from the output folder or from the bundle
# gpu-check makes; the figures printed; a name already taken, or no documents, refused with exit 2.
source "$(dirname "$0")/lib.sh"
RECORD="python3 $SRC/scripts/record-gpu-run.py"

mkdir -p "$WORK/visit" "$WORK/results" "$WORK/bundled" "$WORK/results2"
python3 - "$WORK/visit" <<'PY'
import json, sys
doc = {"schema": "kbench.results/1", "device": "NVIDIA H200", "started_at": "2026-12-03T09:15:00Z",
       "build": "commit 65a9bed0c1d2e3f4 · Release · GNU 12.2.0 · CUDA 13.0.88 sm_90 · portable",
       "settings": {"math_modes": ["fp32", "tf32"]}, "workloads": [], "results": []}
for name in ("seeds", "variants", "examples", "protocol-cold", "protocol-hot-graph"):
    json.dump(doc, open(f"{sys.argv[1]}/{name}.json", "w"))
json.dump({"schema": "kbench.plan/1", "device": {}, "plans": []}, open(f"{sys.argv[1]}/plan.json", "w"))
PY
$RECORD "$WORK/visit" --results-dir "$WORK/results" >"$WORK/out.txt" || fail "record-gpu-run exit $?"
[[ -f "$WORK/results/2026-12-03_h200_65a9bed.json" ]] || fail "seeds.json not filed under its name"
[[ -f "$WORK/results/2026-12-03_h200_65a9bed_variants.json" ]] || fail "variants.json not filed under its name"
[[ -f "$WORK/results/2026-12-03_h200_65a9bed_examples.json" ]] || fail "examples.json not filed under its name"
[[ -f "$WORK/results/2026-12-03_h200_65a9bed_plan.json" ]] || fail "plan.json not filed under its name"
for config in cold hot-graph; do
  [[ -f "$WORK/results/2026-12-03_h200_65a9bed_protocol-$config.json" ]] || fail "protocol-$config.json not filed"
done
grep -q "Our default kernels against cuDNN" "$WORK/out.txt" || fail "the figures were not printed"

$RECORD "$WORK/visit" --results-dir "$WORK/results" 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "a name already taken must be refused"
grep -q "exists already" "$WORK/err.txt" || fail "the refusal must say the file exists"

(cd "$WORK/visit" && tar czf "$WORK/bundled/gpu-check.tar.gz" seeds.json variants.json) || fail "tar"
$RECORD "$WORK/bundled" --results-dir "$WORK/results2" >/dev/null || fail "the bundle was not read"
[[ -f "$WORK/results2/2026-12-03_h200_65a9bed_variants.json" ]] || fail "nothing filed from the bundle"

$RECORD "$WORK/results2" --results-dir "$WORK/results2" 2>/dev/null
[[ $? == 2 ]] || fail "a folder with no documents must be refused"
echo "PASS"
