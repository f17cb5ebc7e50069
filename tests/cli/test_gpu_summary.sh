# scripts/gpu-summary.py on hand-made seeds/variants documents whose verdicts are known: a default
# that meets its target and beats cuDNN, one that misses its target, one that did not verify, the
# fastest variant per backend, and an unreadable input (exit 2).
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
PY

$SUMMARY "$WORK/seeds.json" "$WORK/variants.json" --output "$WORK/summary.md" || fail "gpu-summary exit $?"
expect() { grep -qF -- "$1" "$WORK/summary.md" || { cat "$WORK/summary.md"; fail "summary lacks: $1"; }; }
expect "GPU: NVIDIA H200; build: commit abc"
expect '| 076 | tf32 | `implicit_gemm_tf32/channel_blocks/128x256/resident_a` 3.6 ms | `cudnn:IMPLICIT_PRECOMP_GEMM` 9 ms | 2.50x | 2.98 ms (memory) | 1.21x | 4.2 ms | meets target, beats cuDNN |'
expect '| 076 | fp32 | not run | not run | — | 3.33 ms (compute, 3xTF32) | — |'
expect '| 050 | tf32 | `implicit_gemm_tf32/input_patch/96x256` 0.25 ms | `cudnn:IMPLICIT_GEMM` 0.21 ms | 0.84x | — | — | 0.2 ms | misses target by 0.05 ms, slower than cuDNN |'
expect '| 084 | fp32 | wrong: 3 of 4096 checked elements out of tolerance |'
expect 'no verified time |'
expect '| 076 | tf32 | cuda | `implicit_gemm_tf32/streamed_a` | 3.4 ms | 2 / 3 |'
expect '| 076 | tf32 | cudnn | `FFT_TILING` | 8 ms | 1 / 1 |'
expect '- seeds: 084 fp32 cuda — wrong: 3 of 4096 checked elements out of tolerance'
expect '- variants: 076 tf32 cuda:implicit_gemm_tf32/k_table — failed: CUDA error: out of memory'
# Without variants.json: the headline and the failures only.
$SUMMARY "$WORK/seeds.json" > "$WORK/only-seeds.md" || fail "gpu-summary without variants"
grep -q "Fastest verified variant" "$WORK/only-seeds.md" && fail "a variants table without variants.json"
# Unreadable or foreign input: exit 2 and a message naming the file.
echo '{"schema": "other"}' > "$WORK/foreign.json"
$SUMMARY "$WORK/foreign.json" > /dev/null 2> "$WORK/err"; code=$?
[ "$code" -eq 2 ] || fail "foreign document: exit $code, expected 2"
grep -q "foreign.json is not a kbench.results/1 document" "$WORK/err" || fail "no message naming the file"
$SUMMARY "$WORK/missing.json" > /dev/null 2>&1; [ $? -eq 2 ] || fail "missing file: expected exit 2"
echo "ok"
