#!/usr/bin/env bash
# gpu-check.sh [OUTDIR] - everything kbench wants to know from one short visit to a GPU machine.
#
# Expects an existing build (build/portable unless KBENCH_BUILD_DIR says otherwise) and runs, in
# order, each step under `timeout` and logged to OUTDIR/<step>.log:
#   nvidia-smi -q (before), the timing-protocol check (scripts/timing-protocol-check.sh: one small
#   example eager vs --graph and cold vs --hot on cuda and cudnn, protocol-*.json and protocol.md),
#   kbench info, kbench plan (plan.json), kbench calibrate,
#   kbench compare cuda vs cudnn on the KernelBench level-1 seeds in fp32 and tf32 (seeds.json): the
#   headline, first, so that a visit short of time (a build on the device) still brings it back,
#   the same seeds in fp16 and bf16 NHWC (seeds-fp16-nhwc.json, seeds-bf16-nhwc.json), their backward
#   passes and the backward examples (seeds-backward.json, examples-backward.json), the GPU tests (scripts/run-gpu-tests.sh: each case in its own process),
#   every kernel variant and cuDNN algorithm (variants.json), every kernel variant of the fp16 NHWC
#   seeds (variants-half.json), their figures against issue 4's targets
#   (figures.md, scripts/gpu-summary.py, also printed at the end), every example on cuDNN, our
#   default, direct and direct_tiled (examples.json), compute-sanitizer memcheck and
#   racecheck of our kernels on the small examples (memcheck also on the backward and half examples), Nsight Compute counters of our default kernels
#   on the seeds (scripts/gpu-profile.sh), in the time left the randomised kernel tests on other
#   shapes (scripts/gpu-soak.sh), nvidia-smi -q (after).
# A failing step does not stop the others. A kernel fault (a sticky CUDA error) poisons its
# process's context, so the seeds run one kbench process per seed, and the variants one per seed and
# math mode, merged into seeds.json and variants.json (scripts/merge-results.py): a fault costs its
# own part only. All of them use one --seed, drawn per visit (KBENCH_SEED to repeat one). The whole script keeps under KBENCH_CHECK_BUDGET_S
# seconds (default 470, inside an 8-minute lease call); a step that would start with too little
# time left is recorded as not run. A summary is printed last (and kept in OUTDIR/summary.txt);
# the exit status is non-zero if any step failed or did not run.
#
# Environment:
#   KBENCH_BUILD_DIR        build directory (default: build/portable under the repository)
#   KBENCH_CHECK_BUDGET_S   total seconds for all steps (default 470)
#   KBENCH_TIME_BUDGET      --time-budget of each `kbench run`, seconds of sampling per result (default 10)
#   KBENCH_SEED             the inputs' seed for every kbench process (default: drawn from the clock)
#   KBENCH_CHECK_STEPS      step names or globs, comma- or space-separated, to run (default: every step);
#                           the others are listed as "skipped (not selected)", not as failures. For a
#                           second, shorter call in the same visit, e.g. "gpu-tests seeds-* merge-seeds
#                           figures" (the names are those of the summary; merges and figures included)
# When the build's kbench does not run here and .deps/ was carried (scripts/vendor-deps.sh), the
# first step builds kbench and its GPU tests here (scripts/build-on-device.sh, build/device).
#   KBENCH_CHECK_BUNDLE=1   pack every file but summary.txt into OUTDIR/gpu-check.tar.gz at the end
#                           (for machines that return only a few files from OUTDIR)
set -u -o pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
outdir="${1:-$repo_root/gpu-check-results}"
build_dir="${KBENCH_BUILD_DIR:-$repo_root/build/portable}"
budget_s="${KBENCH_CHECK_BUDGET_S:-470}"
run_time_budget="${KBENCH_TIME_BUDGET:-10}"
seeds="$repo_root/workloads/kernelbench/level1"
seed_files=("$seeds"/{050,076,077,084}_*.yaml)  # the four seeds: the directory holds the whole KernelBench suite
seed_id() { basename "$1" | cut -d_ -f1; }  # 050_conv2d_....yaml -> 050
input_seed="${KBENCH_SEED:-$(date +%s)}"

mkdir -p "$outdir" || { echo "gpu-check: cannot create $outdir" >&2; exit 2; }
outdir="$(cd "$outdir" && pwd)"
build_dir="$(cd "$build_dir" 2>/dev/null && pwd || echo "$build_dir")"
kbench="$build_dir/apps/kbench/kbench"
gpu_tests="$build_dir/tests/gpu/kbench_gpu_tests"

start_s=$SECONDS
summary=()
failures=0

# cuDNN from the image's Python wheels (nvidia-cudnn-*), when there is one: the portable build
# links libcudnn.so.9 dynamically.
if cudnn_dir="$(bash "$repo_root/scripts/cudnn-wheel-dir.sh")"; then
  export LD_LIBRARY_PATH="$cudnn_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  cudnn_note="cuDNN from $cudnn_dir/lib"
else
  cudnn_note="cuDNN from the default library path (no nvidia.cudnn Python package found)"
fi

# selected NAME: whether KBENCH_CHECK_STEPS asks for step NAME (every step when it is unset or
# empty). The patterns are read without pathname expansion; the on-device build always runs.
selected() {
  local name="$1" pattern patterns
  [[ -z "${KBENCH_CHECK_STEPS:-}" || "$name" == build-on-device ]] && return 0
  IFS=', ' read -ra patterns <<<"$KBENCH_CHECK_STEPS"
  for pattern in "${patterns[@]}"; do
    # shellcheck disable=SC2053  # the pattern is a glob on purpose
    [[ "$name" == $pattern ]] && return 0
  done
  return 1
}

# not_selected NAME: records a step KBENCH_CHECK_STEPS left out.
not_selected() {
  summary+=("$(printf '%-18s %-22s %6s  %s' "$1" "skipped (not selected)" "-" "")")
}

# step NAME MAX_SECONDS COMMAND...: run COMMAND with stdout and stderr in OUTDIR/NAME.log.
step() {
  local name="$1" max_s="$2"
  shift 2
  if ! selected "$name"; then
    not_selected "$name"
    return
  fi
  local log="$outdir/$name.log"
  local left=$(( budget_s - (SECONDS - start_s) ))
  local limit=$(( max_s < left ? max_s : left ))
  if (( limit < 5 )); then
    summary+=("$(printf '%-18s %-22s %6s  %s' "$name" "NOT RUN (out of time)" "-" "")")
    failures=$((failures + 1))
    echo "not run: the ${budget_s}s budget is spent" >"$log"
    return
  fi
  echo "== $name (limit ${limit}s): $*"
  local t0=$SECONDS
  { echo "\$ $*"; echo "# limit ${limit}s, started $(date -u +%FT%TZ)"; } >"$log"
  timeout --kill-after=5 "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  local took=$(( SECONDS - t0 ))
  local status
  case $rc in
    0) status="ok" ;;
    124|137) status="TIMEOUT after ${limit}s"; failures=$((failures + 1)) ;;
    *) status="FAILED (exit $rc)"; failures=$((failures + 1)) ;;
  esac
  echo "# exit $rc after ${took}s" >>"$log"
  tail -n 3 "$log" | sed 's/^/   | /'
  summary+=("$(printf '%-18s %-22s %5ss  %s' "$name" "$status" "$took" "$name.log")")
}

# merged NAME OUTPUT PART...: one results document from the parts that were written.
merged() {
  local name="$1" output="$2"
  shift 2
  if ! selected "$name"; then
    not_selected "$name"
    return
  fi
  local parts=()
  for part in "$@"; do [[ -f "$part" ]] && parts+=("$part"); done
  if (( ${#parts[@]} == 0 )); then
    summary+=("$(printf '%-18s %-22s %6s  %s' "$name" "NOT RUN (no parts)" "-" "")")
    failures=$((failures + 1))
    return
  fi
  step "$name" 15 python3 "$repo_root/scripts/merge-results.py" "${parts[@]}" --output "$output"
}

# The binaries built here may not load there (the portable build needs glibc 2.35 or newer): then,
# given the carried .deps/, build them on the device first (scripts/build-on-device.sh), rather than
# lose the visit.
if ! "$kbench" --version >/dev/null 2>&1 && [[ -d "$repo_root/.deps" ]]; then
  echo "gpu-check: $kbench does not run here; building on this machine"
  step build-on-device 330 bash "$repo_root/scripts/build-on-device.sh" "$repo_root/build/device"
  if "$repo_root/build/device/apps/kbench/kbench" --version >/dev/null 2>&1; then
    build_dir="$repo_root/build/device"
    kbench="$build_dir/apps/kbench/kbench"
    gpu_tests="$build_dir/tests/gpu/kbench_gpu_tests"
  fi
fi

missing=()
[[ -x "$kbench" ]] || missing+=("$kbench")
[[ -x "$gpu_tests" ]] || missing+=("$gpu_tests")
if (( ${#missing[@]} )); then
  echo "gpu-check: not built: ${missing[*]} (build with the 'portable' preset or set KBENCH_BUILD_DIR)"
fi

echo "gpu-check: build $build_dir, results $outdir, budget ${budget_s}s; $cudnn_note"
step nvidia-smi-before 20 nvidia-smi -q
# First: whether the timing protocol itself behaves (eager vs graph, cold vs hot, on one small example,
# cuda and cudnn), before any number it produces is trusted.
step timing-protocol 75 env KBENCH_SEED="$input_seed" bash "$repo_root/scripts/timing-protocol-check.sh" "$kbench" \
  "$outdir"
step info 30 "$kbench" info
# What each backend of the build would run here, before anything runs (kbench plan: our kernels'
# facts for this device's SMs, cuDNN's heuristic picks and the algorithms it accepts), into plan.json.
step plan 20 bash -c '"$1" plan "$2/workloads/kernelbench/level1" "$2/workloads/examples" \
  "$2/workloads/kernelbench/level1-backward" "$2/workloads/examples-backward" --math fp32,tf32 \
  --format json > "$3/plan.json"' plan "$kbench" "$repo_root" "$outdir"
step calibrate 60 "$kbench" calibrate
# The headline: our kernels against cuDNN on the seeds, both math modes, one process per seed (each
# log holds its comparison table), merged into seeds.json.
seed_parts=()
for file in "${seed_files[@]}"; do
  id="$(seed_id "$file")"
  step "seeds-$id" 60 "$kbench" compare "$file" --backends cuda,cudnn --baseline cudnn --math fp32,tf32 \
    --seed "$input_seed" --time-budget "$run_time_budget" --format json --output "$outdir/seeds-$id.json"
  seed_parts+=("$outdir/seeds-$id.json")
done
merged merge-seeds "$outdir/seeds.json" "${seed_parts[@]}"
# The seeds in fp16 and bf16, channels last (issue 24's targets): our tensor-core GEMM and generic
# kernel against cuDNN, one process per dtype, fewer samples.
for dtype in fp16 bf16; do
  step "seeds-$dtype-nhwc" 60 "$kbench" compare "$repo_root/workloads/kernelbench/level1-$dtype-nhwc" \
    --backends cuda,cudnn --baseline cudnn --seed "$input_seed" --iterations 50 --time-budget "$run_time_budget" \
    --format json --output "$outdir/seeds-$dtype-nhwc.json"
done
# The seeds' backward passes (issue 26's targets: the forward targets apply to each pass) and the small
# backward examples (every op, rank and feature), against cuDNN, one process each, fewer samples.
step seeds-backward 75 "$kbench" compare "$repo_root/workloads/kernelbench/level1-backward" \
  --backends cuda,cudnn --baseline cudnn --math fp32,tf32 --seed "$input_seed" --iterations 30 \
  --time-budget "$run_time_budget" --format json --output "$outdir/seeds-backward.json"
step examples-backward 45 "$kbench" run "$repo_root/workloads/examples-backward" --backends cudnn,cuda \
  --math fp32 --seed "$input_seed" --iterations 20 --time-budget 1 --format json --output "$outdir/examples-backward.json"
# The GPU tests, each test case in a process of its own (a fault then fails its own case only).
step gpu-tests 150 bash "$repo_root/scripts/run-gpu-tests.sh" "$gpu_tests"
# Skipped GPU tests (exit 77) mean no device was found: on a GPU visit that is a failure, already
# counted as one by step().
if [[ -f "$outdir/gpu-tests.log" ]] && grep -q '^# exit 77 ' "$outdir/gpu-tests.log"; then
  summary[-1]="$(printf '%-18s %-22s %6s  %s' gpu-tests "SKIPPED (no device)" "-" gpu-tests.log)"
fi
# Every kernel variant and every cuDNN algorithm, fewer samples (what to tune next): one process per
# seed and math mode, cuDNN's first, merged into variants.json.
variant_parts=()
for file in "${seed_files[@]}"; do
  id="$(seed_id "$file")"
  for math in fp32 tf32; do
    step "variants-$id-$math" 40 "$kbench" run "$file" --backends cudnn:all,cuda:all --math "$math" \
      --seed "$input_seed" --iterations 20 --time-budget 3 --format json --output "$outdir/variants-$id-$math.json"
    variant_parts+=("$outdir/variants-$id-$math.json")
  done
done
merged merge-variants "$outdir/variants.json" "${variant_parts[@]}"
# Every kernel variant of the fp16 NHWC seeds (the half defaults against /wgmma and direct): what to
# tune first for issue 24's targets; bf16 runs the same kernels.
step variants-half 60 "$kbench" run "$repo_root/workloads/kernelbench/level1-fp16-nhwc" --backends cuda:all \
  --seed "$input_seed" --iterations 10 --time-budget 2 --format json --output "$outdir/variants-half.json"
# The figures docs/perf-notes.md records: defaults against cuDNN and the targets, fastest variants.
figures_inputs=("$outdir/seeds.json")
[[ -f "$outdir/variants.json" ]] && figures_inputs+=("$outdir/variants.json")
step figures 15 python3 "$repo_root/scripts/gpu-summary.py" "${figures_inputs[@]}" --output "$outdir/figures.md"
# Every example on cuDNN's choice, our default, `direct` and `direct_tiled`, few samples: the small
# shapes no seed reaches, and the claim that made direct_tiled the default where the GEMM does not pay
# (about 70 results: a minute at most, where every variant of every example would take several); and
# the fp32 GEMM whole where the default splits its reduction (the late-stage example: what split-K gains).
step examples 60 "$kbench" run "$repo_root/workloads/examples" \
  --backends cudnn,cuda,cuda:direct,cuda:direct_tiled,cuda:implicit_gemm_3xtf32/no_split_k \
  --math fp32 --seed "$input_seed" --iterations 20 --time-budget 1 --format json --output "$outdir/examples.json"
# Our kernels under compute-sanitizer at small sizes (every family has an example in its envelope).
if command -v compute-sanitizer >/dev/null; then
  step memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 "$kbench" run "$repo_root/workloads/examples" \
    --backends cuda:all --iterations 1 --warmups 0 --hot
  step racecheck 90 compute-sanitizer --tool racecheck --error-exitcode 9 "$kbench" run \
    "$repo_root/workloads/examples" --backends cuda:all --iterations 1 --warmups 0 --hot
  # The backward passes' kernels (wgrad_gemm_ffma, wgrad_depthwise, the forward families on dgrad problems).
  step memcheck-backward 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$kbench" run \
    "$repo_root/workloads/examples-backward" --backends cuda:all --iterations 1 --warmups 0 --hot
  # The fp16/bf16 and channels-last kernels on every dtype x layout x op example.
  step memcheck-half 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$kbench" run \
    "$repo_root/workloads/examples-half" --backends cuda:all --iterations 1 --warmups 0 --hot
fi
# Hardware counters of our default kernels on the seeds (needs a runtime where ncu reads them).
step profile 75 bash "$repo_root/scripts/gpu-profile.sh" "$kbench" "$outdir"
# The time left: the randomised kernel tests again, on other shapes each pass (scripts/gpu-soak.sh),
# keeping 25 s for the last nvidia-smi. Too little time left is no failure: the soak is a bonus.
soak_s=$(( budget_s - (SECONDS - start_s) - 25 ))
if (( soak_s >= 30 )) || ! selected gpu-soak; then
  step gpu-soak "$soak_s" bash "$repo_root/scripts/gpu-soak.sh" "$gpu_tests" "$(( soak_s - 10 ))"
else
  summary+=("$(printf '%-18s %-22s %6s  %s' gpu-soak "skipped (no time left)" "-" "")")
fi
step nvidia-smi-after 20 nvidia-smi -q

[[ -f "$outdir/figures.md" ]] && cat "$outdir/figures.md"
{
  echo "gpu-check summary ($(date -u +%FT%TZ), $((SECONDS - start_s))s of ${budget_s}s; $cudnn_note)"
  printf '%s\n' "${summary[@]}"
  if (( failures )); then echo "$failures step(s) failed or did not run; logs in $outdir"; else echo "all steps ok"; fi
} | tee "$outdir/summary.txt"

if [[ "${KBENCH_CHECK_BUNDLE:-0}" == 1 ]]; then
  (cd "$outdir" && files=$(ls | grep -v -e '^summary.txt$' -e '^gpu-check.tar.gz$') &&
     tar czf gpu-check.tar.gz $files && rm -f $files) &&
    echo "bundled into $outdir/gpu-check.tar.gz"
fi

(( failures == 0 ))
