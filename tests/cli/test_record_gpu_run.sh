# scripts/record-gpu-run.py: a gpu-check visit's documents filed under the names docs/results/README.md
# asks for (date, GPU, commit), from the output folder or the bundle gpu-check makes, and the figures
# printed:
#   - the full set a visit writes (its parts, logs and figures.md not filed), and a partial set (a call
#     cut off: seeds and variants only as parts, merged here);
#   - all or nothing: a name already taken, figures that cannot be made (gpu-summary.py fails on a
#     staged document), parts that do not merge, a document from no GPU or another build: exit 2,
#     nothing filed, no staging folder left, and the same command files everything once the cause is gone.
source "$(dirname "$0")/lib.sh"
RECORD="python3 $SRC/scripts/record-gpu-run.py"
STEM=2026-12-03_h200_65a9bed

# make_visit DIR KIND...: one kbench.results/1 document per KIND (a seed id for a seeds part), plus
# plan.json, logs and figures.md, as gpu-check leaves them.
make_visit() {
  mkdir -p "$1"
  python3 - "$@" <<'PY'
import json, sys
out, kinds = sys.argv[1], sys.argv[2:]
def doc(seeds, maths=("fp32", "tf32"), device="NVIDIA H200 (device 0, sm_90, 132 SMs)",
        build="commit 65a9bed0c1d2e3f4 · Release · GNU 12.2.0 · CUDA 13.0.88 sm_90 · portable"):
    names = [f"kernelbench-l1-{s}-conv" for s in seeds]
    results = [{"workload": n, "backend": b, "variant": "", "implementation": b, "math_requested": m,
                "math_used": m, "status": "ok", "reason": "", "headroom": 1.2,
                "timing": {"stats": {"median": 1e-3}}} for n in names for m in maths for b in ("cuda", "cudnn")]
    return {"schema": "kbench.results/1", "kbench_version": "0.1", "device": device, "build": build,
            "started_at": "2026-12-03T09:15:00Z", "interrupted": False, "notes": [],
            "settings": {"backends": ["cuda", "cudnn"], "math_modes": list(maths)},
            "workloads": [{"name": n} for n in names], "results": results}
every = ["050", "076", "077", "084"]
for kind in kinds:
    if kind.startswith("seeds-0"):                       # seeds-050: one seed's part
        d = doc([kind[6:]])
    elif kind.startswith("variants-0"):                  # variants-050-tf32: one seed and math mode
        d = doc([kind[9:12]], maths=(kind[13:],))
    elif kind == "no-gpu":                               # a seeds.json kbench wrote on no GPU
        d = doc(every, device="no CUDA device found: cudaErrorNoDevice")
        for r in d["results"]:
            r.update(status="unavailable", reason="no CUDA device", timing=None)
        kind = "seeds"
    elif kind == "other-build":                          # variants.json of another build
        d, kind = doc(every, build="commit 1111111aaaa · Release"), "variants"
    elif kind == "broken-seeds":                         # readable, but its results lack their keys
        d, kind = doc(every), "seeds"
        d["results"] = [{"workload": d["workloads"][0]["name"]}]
    else:
        d = doc(every)
    json.dump(d, open(f"{out}/{kind}.json", "w"))
json.dump({"schema": "kbench.plan/1", "device": {}, "plans": []}, open(f"{out}/plan.json", "w"))
for extra in ("info.log", "seeds-050.log", "figures.md", "summary.txt"):
    open(f"{out}/{extra}", "w").write("not a document\n")
PY
}
# nothing_filed DIR: DIR holds no document and no staging folder.
nothing_filed() {
  [[ -z "$(ls -A "$1")" ]] || fail "a refused recording left $(ls -A "$1" | tr '\n' ' ') in $1"
}

# The full set a visit writes: the merged documents and their parts, every other document, plan.json.
FULL=(seeds seeds-050 seeds-076 seeds-077 seeds-084 variants variants-050-fp32 variants-050-tf32 variants-half examples
      seeds-fp16-nhwc seeds-bf16-nhwc seeds-backward examples-backward protocol-cold protocol-cold-graph
      protocol-hot protocol-hot-graph)
make_visit "$WORK/full" "${FULL[@]}"
mkdir -p "$WORK/results"
$RECORD "$WORK/full" --results-dir "$WORK/results" >"$WORK/out.txt" 2>&1
rc=$?
(( rc == 0 )) || { cat "$WORK/out.txt"; fail "record-gpu-run refused a full visit (exit $rc)"; }
for document in "" _variants _variants-half _examples _seeds-fp16-nhwc _seeds-bf16-nhwc _seeds-backward \
  _examples-backward _plan _protocol-cold _protocol-cold-graph _protocol-hot _protocol-hot-graph; do
  [[ -f "$WORK/results/$STEM$document.json" ]] || fail "$STEM$document.json not filed"
done
(( $(ls -A "$WORK/results" | wc -l) == 13 )) || fail "filed other files too: $(ls -A "$WORK/results" | tr '\n' ' ')"
grep -q "Our default kernels against cuDNN (seeds.json)" "$WORK/out.txt" || fail "the figures were not printed"
grep -q "Our default kernels against cuDNN (seeds-bf16-nhwc)" "$WORK/out.txt" || fail "the figures lack the bf16 seeds"
grep -q "Fastest verified variant per backend (variants-half)" "$WORK/out.txt" || fail "the figures lack variants-half"

# Again: every name is taken; refused, and nothing of the second attempt is left (no staging folder).
$RECORD "$WORK/full" --results-dir "$WORK/results" 2>"$WORK/err.txt"
[[ $? == 2 ]] || fail "a name already taken must be refused"
grep -q "exists already; nothing filed" "$WORK/err.txt" || fail "the refusal must say the file exists"
(( $(ls -A "$WORK/results" | wc -l) == 13 )) || fail "a refused recording left $(ls -A "$WORK/results" | tr '\n' ' ')"

# A partial set, from the bundle of a call cut off after the variants of problem 50: the seeds and the
# variants as parts only, merged here; no plan, no protocol.
make_visit "$WORK/cut" seeds-050 seeds-076 seeds-077 seeds-084 variants-050-fp32 variants-050-tf32
rm "$WORK/cut/plan.json"
mkdir -p "$WORK/bundled" "$WORK/partial"
(cd "$WORK/cut" && tar czf "$WORK/bundled/gpu-check.tar.gz" ./*) || fail "tar"
echo "gpu-check summary (in progress)" >"$WORK/bundled/summary.txt"
$RECORD "$WORK/bundled" --results-dir "$WORK/partial" >"$WORK/partial.txt" 2>&1 || { cat "$WORK/partial.txt"; fail "the partial set was refused"; }
[[ "$(ls "$WORK/partial" | tr '\n' ' ')" == "${STEM}.json ${STEM}_variants.json " ]] || fail "partial set filed as $(ls "$WORK/partial")"
json_check "$WORK/partial/$STEM.json" 'len(doc["workloads"]) == 4 and len(doc["results"]) == 16'
json_check "$WORK/partial/${STEM}_variants.json" 'doc["settings"]["math_modes"] == ["fp32", "tf32"] and len(doc["results"]) == 4'
grep -q "merging seeds-050.json" "$WORK/partial.txt" || fail "the merge of the parts is not said"

# Failures midway: each leaves nothing, and the visit files whole once its cause is gone.
mkdir -p "$WORK/r"
make_visit "$WORK/broken" broken-seeds variants examples   # gpu-summary.py fails on the staged seeds
$RECORD "$WORK/broken" --results-dir "$WORK/r" 2>"$WORK/err.txt"
[[ $? == 2 ]] && grep -q "gpu-summary.py failed" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "figures that fail must refuse the recording"; }
nothing_filed "$WORK/r"
make_visit "$WORK/broken" seeds
$RECORD "$WORK/broken" --results-dir "$WORK/r" >/dev/null 2>&1 || fail "the visit was not filed once fixed"
[[ -f "$WORK/r/${STEM}_examples.json" && -f "$WORK/r/$STEM.json" ]] || fail "the fixed visit is not filed whole"

mkdir -p "$WORK/r2" "$WORK/r3" "$WORK/r4"
make_visit "$WORK/nogpu" no-gpu variants                   # kbench found no GPU
$RECORD "$WORK/nogpu" --results-dir "$WORK/r2" 2>"$WORK/err.txt"
[[ $? == 2 ]] && grep -q "written without a GPU" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "a document without a GPU must be refused"; }
nothing_filed "$WORK/r2"
make_visit "$WORK/mixed" seeds other-build                 # variants.json of another build
$RECORD "$WORK/mixed" --results-dir "$WORK/r3" 2>"$WORK/err.txt"
[[ $? == 2 ]] && grep -q "is not the seeds'" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "documents of two builds must be refused"; }
nothing_filed "$WORK/r3"
make_visit "$WORK/clash" seeds-050 seeds-076              # parts that do not merge: another build's
python3 - "$WORK/clash/seeds-076.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["build"] = "commit 2222222bbbb · Release"; json.dump(d, open(sys.argv[1], "w"))
PY
$RECORD "$WORK/clash" --results-dir "$WORK/r4" 2>"$WORK/err.txt"
[[ $? == 2 ]] || { cat "$WORK/err.txt"; fail "parts that do not merge must be refused"; }
nothing_filed "$WORK/r4"

$RECORD "$WORK/r4" --results-dir "$WORK/r4" 2>/dev/null
[[ $? == 2 ]] || fail "a folder with no documents must be refused"
echo "PASS"
