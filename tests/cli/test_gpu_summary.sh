# scripts/gpu-summary.py on hand-made seeds/variants documents whose verdicts are known: a default
# that meets its target and beats cuDNN, one that misses its target, one that did not verify, a seed
# with no result ("not run"), the fastest variant per backend, the more documents of a visit (half
# seeds, variants-half); on an H100 no H200 target, verdicts by ratios to cuDNN and the floor; an
# unreadable input (exit 2).
source "$(dirname "$0")/lib.sh"
SUMMARY="python3 $SRC/scripts/gpu-summary.py"

python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]

def result(workload, backend, math, status, median_ms=None, variant="", implementation="", reason="", headroom=None):
    timing = None
    if median_ms is not None:
        s = median_ms / 1e3
        timing = {"samples_s": [s], "stats": {"count": 1, "mean": s, "median": s, "stdev": 0, "min": s,
                                              "max": s, "p10": s, "p90": s},
                  "throttled_samples": 0, "budget_exhausted": False, "wall_s": s}
    return {"workload": workload, "backend": backend, "variant": variant, "implementation": implementation,
            "math_requested": math, "math_used": math, "status": status, "reason": reason,
            "verification": None, "timing": timing, "achieved": None, "headroom": headroom, "properties": {}}

def floor(floor_ms, binds, units):
    return {"memory_s": 0, "compute_s": 0, "floor_s": floor_ms / 1e3, "binds": binds, "compute_units": units,
            "published_input_only_s": 0}

s76, s50, s84 = ("kernelbench-l1-076-conv1d-dilated-strided", "kernelbench-l1-050-conv2d-alexnet-first-layer",
                 "kernelbench-l1-084-conv2d-depthwise")
base = {"schema": "kbench.results/1", "device": "NVIDIA H200", "build": "commit abc", "started_at": "2026-12-01T00:00:00Z",
        "settings": {"math_modes": ["fp32", "tf32"]},
        "workloads": [{"name": s76, "floor": {"fp32": floor(3.33, "compute", "3xTF32"),
                                              "tf32": floor(2.98, "memory", "TF32")}},
                      {"name": s50}, {"name": s84}]}
seeds = dict(base, results=[
    result(s76, "cuda", "tf32", "ok", 3.6, implementation="implicit_gemm_tf32/channel_blocks/128x256/resident_a",
           headroom=3.6 / 2.98),
    result(s76, "cudnn", "tf32", "ok", 9.0, implementation="cudnn:IMPLICIT_PRECOMP_GEMM"),
    result(s50, "cuda", "tf32", "ok", 0.25, implementation="implicit_gemm_tf32/input_patch/96x256"),
    result(s50, "cudnn", "tf32", "ok", 0.21, implementation="cudnn:IMPLICIT_GEMM"),
    result(s84, "cuda", "fp32", "wrong", reason="3 of 4096 checked elements out of tolerance"),
    result(s84, "cudnn", "fp32", "ok", 4.0, implementation="cudnn:IMPLICIT_GEMM"),
])
variants = dict(base, results=[
    result(s76, "cuda", "tf32", "ok", 3.6, variant="implicit_gemm_tf32"),
    result(s76, "cuda", "tf32", "ok", 3.4, variant="implicit_gemm_tf32/streamed_a"),
    result(s76, "cuda", "tf32", "failed", variant="implicit_gemm_tf32/k_table", reason="CUDA error: out of memory"),
    result(s76, "cudnn", "tf32", "ok", 8.0, variant="FFT_TILING"),
    result(s76, "cudnn", "tf32", "unsupported", variant="WINOGRAD", reason="not for 1-D"),
])
json.dump(seeds, open(f"{work}/seeds.json", "w"))
json.dump(variants, open(f"{work}/variants.json", "w"))
h100 = dict(seeds, device="NVIDIA H100 80GB HBM3 (device 0, sm_90, 132 SMs)")
json.dump(h100, open(f"{work}/seeds-h100.json", "w"))
h50 = "kernelbench-l1-050-conv2d-alexnet-first-layer-fp16-nhwc"
half = dict(base, settings={"math_modes": ["fp32"]}, workloads=[{"name": h50}], results=[
    result(h50, "cuda", "fp32", "ok", 0.2, implementation="implicit_gemm_half/gathered/64x64"),
    result(h50, "cudnn", "fp32", "ok", 0.1, implementation="cudnn:graph"),
])
json.dump(half, open(f"{work}/2026-12-05_h200_1234567_seeds-fp16-nhwc.json", "w"))
variants_half = dict(half, results=[
    result(h50, "cuda", "fp32", "ok", 0.2, variant="implicit_gemm_half"),
    result(h50, "cuda", "fp32", "ok", 0.15, variant="implicit_gemm_half/wgmma"),
])
json.dump(variants_half, open(f"{work}/variants-half.json", "w"))
PY

$SUMMARY "$WORK/seeds.json" --variants "$WORK/variants.json" --output "$WORK/summary.md" || fail "gpu-summary exit $?"
expect() { grep -qF -- "$1" "$WORK/summary.md" || { cat "$WORK/summary.md"; fail "summary lacks: $1"; }; }
expect "GPU: NVIDIA H200; build: commit abc"
expect '| seed | math | cuda (default) | cudnn (default) | cudnn / cuda | floor | cuda / floor | target (H200) | verdict |'
# cuDNN's fastest time of the run is FFT_TILING's 8 ms (variants.json), not its default's 9 ms.
expect '| 076 | tf32 | `implicit_gemm_tf32/channel_blocks/128x256/resident_a` 3.6 ms | `cudnn:IMPLICIT_PRECOMP_GEMM` 9 ms | 2.50x | 2.98 ms (memory) | 1.21x | 4.2 ms | beats cuDNN (2.22x), within 1.3x of the floor, meets target |'
expect '| 076 | fp32 | not run | not run | — | 3.33 ms (compute, 3xTF32) | — |'
expect '| 050 | tf32 | `implicit_gemm_tf32/input_patch/96x256` 0.25 ms | `cudnn:IMPLICIT_GEMM` 0.21 ms | 0.84x | — | — | 0.2 ms | slower than cuDNN (0.84x), misses target by 0.05 ms |'
expect '| 084 | fp32 | wrong: 3 of 4096 checked elements out of tolerance |'
expect 'no verified time |'
# Problem 77 has no result at all: its rows read "not run" instead of dropping out of the table.
expect '| 077 | fp32 | not run | not run | — | — | — | — | not run |'
expect '| 077 | tf32 | not run | not run | — | — | — | — | not run |'
expect '| 076 | tf32 | cuda | `implicit_gemm_tf32/streamed_a` | 3.4 ms | 2 / 3 |'
expect '| 076 | tf32 | cudnn | `FFT_TILING` | 8 ms | 1 / 1 |'
expect '- seeds: 084 fp32 cuda — wrong: 3 of 4096 checked elements out of tolerance'
expect '- variants: 076 tf32 cuda:implicit_gemm_tf32/k_table — failed: CUDA error: out of memory'
# Without variants.json: the headline and the failures only.
$SUMMARY "$WORK/seeds.json" > "$WORK/only-seeds.md" || fail "gpu-summary without variants"
grep -q "Fastest verified variant" "$WORK/only-seeds.md" && fail "a variants table without variants.json"
# On an H100: no H200 target, no verdict against one; the ratios instead, and a line saying why.
$SUMMARY "$WORK/seeds-h100.json" --output "$WORK/h100.md" || fail "gpu-summary on an H100's document"
grep -q 'target' "$WORK/h100.md" && ! grep -q "targets were set on an H200, not this GPU" "$WORK/h100.md" &&
  { cat "$WORK/h100.md"; fail "an H100's figures judged by the H200's targets"; }
grep -qF '| 050 | tf32 | `implicit_gemm_tf32/input_patch/96x256` 0.25 ms | `cudnn:IMPLICIT_GEMM` 0.21 ms | 0.84x | — | — | slower than cuDNN (0.84x) |' \
  "$WORK/h100.md" || { cat "$WORK/h100.md"; fail "the H100 row is not judged by ratios alone"; }
grep -q 'misses target\|meets target' "$WORK/h100.md" && fail "an H100 row judged against an H200 target"
# The other documents of a visit, as gpu-check and record-gpu-run hand them over.
$SUMMARY "$WORK/seeds.json" --variants "$WORK/variants.json" --variants-half "$WORK/variants-half.json" \
  --more "$WORK/2026-12-05_h200_1234567_seeds-fp16-nhwc.json" --output "$WORK/all.md" || fail "gpu-summary with every document"
grep -qF 'Our default kernels against cuDNN (seeds-fp16-nhwc):' "$WORK/all.md" || fail "the fp16 seeds have no table"
grep -qF '| 050 fp16-nhwc | fp32 | `implicit_gemm_half/gathered/64x64` 0.2 ms | `cudnn:graph` 0.1 ms | 0.50x | — | — | slower than cuDNN (0.50x) |' \
  "$WORK/all.md" || { cat "$WORK/all.md"; fail "the fp16 seed's row"; }
grep -qF '| 050 fp16-nhwc | fp32 | cuda | `implicit_gemm_half/wgmma` | 0.15 ms | 2 / 2 |' "$WORK/all.md" ||
  { cat "$WORK/all.md"; fail "the fastest half variant"; }
# Unreadable or foreign input: exit 2 and a message naming the file.
echo '{"schema": "other"}' > "$WORK/foreign.json"
$SUMMARY "$WORK/foreign.json" > /dev/null 2> "$WORK/err"; code=$?
[ "$code" -eq 2 ] || fail "foreign document: exit $code, expected 2"
grep -q "foreign.json is not a kbench.results/1 document" "$WORK/err" || fail "no message naming the file"
$SUMMARY "$WORK/missing.json" > /dev/null 2>&1; [ $? -eq 2 ] || fail "missing file: expected exit 2"
$SUMMARY "$WORK/seeds.json" --more "$WORK/foreign.json" > /dev/null 2>&1; [ $? -eq 2 ] || fail "a foreign --more document: expected exit 2"
echo "ok"
