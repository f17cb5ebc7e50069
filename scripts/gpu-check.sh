#!/usr/bin/env bash
# gpu-check.sh [OUTDIR] - everything kbench wants to know from one short visit to a GPU machine.
#
# Expects an existing build (build/portable unless KBENCH_BUILD_DIR says otherwise) and runs its steps
# under `timeout`, each logged to <step>.log, in the order of what a second of the visit is worth:
#   1. nvidia-smi -q (before); kbench info, which must list device 0 by name, else nothing else runs
#      (without a usable GPU every result is `unavailable` and kbench still exits 0); kbench plan
#      (plan.json: what each backend would run on this device);
#   2. the headline: our kernels against cuDNN on the four KernelBench level-1 seeds in fp32 and tf32,
#      one kbench process per seed (seeds-0NN.json), merged into seeds.json;
#   3. the validation of every other GPU path: the GPU tests (scripts/run-gpu-tests.sh, each case in
#      its own process), the seeds in fp16 and bf16 NHWC (seeds-{fp16,bf16}-nhwc.json), their backward
#      passes (seeds-backward.json), the backward examples (examples-backward.json), every example on
#      cuDNN and our default, direct and direct_tiled kernels (examples.json), compute-sanitizer
#      memcheck over the forward, half and backward examples;
#   4. what tunes and explains: the timing-protocol check (scripts/timing-protocol-check.sh:
#      protocol-*.json, protocol.md), kbench calibrate, racecheck, every kernel variant
#      and cuDNN algorithm per seed and math mode (variants-0NN-<math>.json, merged into variants.json),
#      every variant of the fp16 NHWC seeds (variants-half.json), Nsight Compute counters
#      (scripts/gpu-profile.sh), and in the time left the randomised GPU tests on other shapes
#      (scripts/gpu-soak.sh);
#   5. always, from a reserve the steps above cannot spend: the merge of the variants, the figures
#      (figures.md, scripts/gpu-summary.py, also printed at the end) and nvidia-smi -q (after).
# A failing step does not stop the others. A kernel fault (a sticky CUDA error) poisons its process's
# context, so the seeds and variants run one kbench process each: a fault costs its own part only.
# All of them use one --seed, drawn per visit (KBENCH_SEED to repeat one).
#
# Time: the whole script keeps under KBENCH_CHECK_BUDGET_S seconds (default 470, inside a 540 s device
# call). Each step's limit is about twice the time it is expected to take (estimates: none has run on
# a GPU yet). A step of stages 1-4 starts only while the budget, less the reserve of stage 5, leaves
# it at least half its limit (its limit is then cut to what is left); otherwise it is recorded as NOT
# RUN and the next, smaller step may still fit.
# summary.txt is rewritten after every step, so a call cut off early still says what ran; the exit
# status is non-zero if any step failed or did not run.
#
# Environment:
#   KBENCH_BUILD_DIR        build directory (default: build/portable under the repository)
#   KBENCH_CHECK_BUDGET_S   total seconds for all steps (default 470)
#   KBENCH_TIME_BUDGET      --time-budget of each seed's `kbench compare`, seconds of sampling per result (default 5)
#   KBENCH_SEED             the inputs' seed for every kbench process (default: drawn from the clock)
#   KBENCH_CHECK_STEPS      step names or globs, comma- or space-separated, to run (default: every step);
#                           the others are listed as "skipped (not selected)", not as failures. For a
#                           second, shorter call in the same visit, e.g. "seeds-0* merge-seeds figures"
#                           (`seeds-0*`: the fp32/tf32 seeds alone; `seeds-*` also selects the half and
#                           backward steps). info, the gate, always runs.
#   KBENCH_CHECK_BUNDLE=1   keep the steps' files in a scratch folder and OUTDIR to two files,
#                           summary.txt and gpu-check.tar.gz (every log and document but *.ncu-rep,
#                           whose CSV exports travel instead), both rewritten after every step: for
#                           machines that return only a few files, and only a few if the call is killed
#   KBENCH_CUDA_ROOT        where to look for compute-sanitizer and ncu besides PATH (default /usr/local/cuda)
#   KBENCH_CHECK_TIME_SCALE real seconds per second of a step's limit (default 1), and
#   KBENCH_CHECK_CLOCK      a file holding the seconds of budget spent, for the clock instead of real time:
#                           for the CPU test (tests/cli/test_gpu_check_*.sh), whose stand-ins add their
#                           seconds to it and hang for real, so a 470 s visit takes seconds and the same
#                           steps run whatever the test machine's load; a step ends at its limit on this
#                           clock too. Merges and figures, on the host, keep their limits unscaled.
# Each step's command sees KBENCH_CHECK_STEP (its name) and KBENCH_STEP_SECONDS (the real seconds it
# has; scripts/run-gpu-tests.sh keeps every case inside them).
# When the build's kbench does not run here and .deps/ was carried (scripts/vendor-deps.sh), the
# loader's error is kept (kbench-load.log) and the first step builds kbench and its GPU tests here
# (scripts/build-on-device.sh, build/device).
set -u -o pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
outdir="${1:-$repo_root/gpu-check-results}"
build_dir="${KBENCH_BUILD_DIR:-$repo_root/build/portable}"
budget_s="${KBENCH_CHECK_BUDGET_S:-470}"
time_scale="${KBENCH_CHECK_TIME_SCALE:-1}"
run_time_budget="${KBENCH_TIME_BUDGET:-5}"
cuda_root="${KBENCH_CUDA_ROOT:-/usr/local/cuda}"
seeds="$repo_root/workloads/kernelbench/level1"
seed_files=("$seeds"/{050,076,077,084}_*.yaml)  # the four headline problems: the directory holds the whole KernelBench suite
seed_id() { basename "$1" | cut -d_ -f1; }  # 050_conv2d_....yaml -> 050
input_seed="${KBENCH_SEED:-$(date +%s)}"

[[ "$budget_s" =~ ^[0-9]+$ ]] || { echo "gpu-check: KBENCH_CHECK_BUDGET_S '$budget_s' is not a whole number" >&2; exit 2; }
# Microseconds of real time per second of budget (1,000,000 unless KBENCH_CHECK_TIME_SCALE says otherwise).
us_per_s="$(awk -v s="$time_scale" 'BEGIN { if (s !~ /^[0-9]*\.?[0-9]+$/ || s <= 0) exit 1; printf "%d", s * 1e6 }')" ||
  { echo "gpu-check: KBENCH_CHECK_TIME_SCALE '$time_scale' is not a positive number" >&2; exit 2; }
mkdir -p "$outdir" || { echo "gpu-check: cannot create $outdir" >&2; exit 2; }
outdir="$(cd "$outdir" && pwd)"
build_dir="$(cd "$build_dir" 2>/dev/null && pwd || echo "$build_dir")"
kbench="$build_dir/apps/kbench/kbench"
gpu_tests="$build_dir/tests/gpu/kbench_gpu_tests"

# Where the steps write: OUTDIR, or with KBENCH_CHECK_BUNDLE=1 a scratch folder packed into OUTDIR.
bundle="${KBENCH_CHECK_BUNDLE:-0}"
if [[ "$bundle" == 1 ]]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")" || { echo "gpu-check: no scratch folder" >&2; exit 2; }
else
  work="$outdir"
fi

# The clock, without a process per reading: tick sets `elapsed` to the seconds of budget spent (real
# time, or KBENCH_CHECK_CLOCK's), `stamp` to the UTC time.
clock_file="${KBENCH_CHECK_CLOCK:-}"
if [[ -n "$clock_file" ]] && ! { read -r elapsed <"$clock_file" && [[ "$elapsed" =~ ^[0-9]+$ ]]; }; then
  echo "gpu-check: KBENCH_CHECK_CLOCK $clock_file holds no whole number of seconds" >&2; exit 2
fi
start_us="${EPOCHREALTIME//[.,]/}"
start_us=$((10#$start_us))
tick() {
  if [[ -n "$clock_file" ]]; then
    read -r elapsed <"$clock_file"
  else
    local t="${EPOCHREALTIME//[.,]/}"
    elapsed=$(( (10#$t - start_us) / us_per_s ))
  fi
  TZ=UTC printf -v stamp '%(%Y-%m-%dT%H:%M:%SZ)T' -1
}
tick
# real_seconds VAR N: VAR = N seconds of a limit as real seconds for `timeout` (a decimal).
real_seconds() { local us=$(( $2 * us_per_s )); printf -v "$1" '%d.%06d' $((us / 1000000)) $((us % 1000000)); }

# Stage 5's reserve: merge-variants, figures and nvidia-smi-after at their limits, under a second each
# in practice. Stages 1-3 at their limits take 435 s, so that all of them run even if every one hangs.
tail_limit_s=5
reserve_s=$(( 3 * tail_limit_s ))
summary=()
failures=0
ran_steps=0 bundled_at=-1 bundle_note=""
gpu_gate=""   # why the steps after `info` do not run (no usable device), once known
notes=()

# The runtime libraries libcudnn loads (cuDNN, libnvrtc, libcublasLt) from the image's Python wheels,
# first on the library path: the portable build links libcudnn.so.9 dynamically.
if wheel_path="$(bash "$repo_root/scripts/wheel-library-path.sh")" && [[ -n "$wheel_path" ]]; then
  export LD_LIBRARY_PATH="$wheel_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  notes+=("libraries from the Python wheels first: $wheel_path")
else
  notes+=("cuDNN, nvrtc and cuBLASLt from the default library path (no nvidia.* Python wheels found)")
fi

# selected NAME: whether KBENCH_CHECK_STEPS asks for step NAME (every step when it is unset or
# empty). The patterns are read without pathname expansion; the build and the gate always run.
selected() {
  local name="$1" pattern patterns
  [[ -z "${KBENCH_CHECK_STEPS:-}" || "$name" == build-on-device || "$name" == info ]] && return 0
  IFS=', ' read -ra patterns <<<"$KBENCH_CHECK_STEPS"
  for pattern in "${patterns[@]}"; do
    # shellcheck disable=SC2053  # the pattern is a glob on purpose
    [[ "$name" == $pattern ]] && return 0
  done
  return 1
}

# record NAME STATUS SECONDS LOG [FAILED]: one summary line; the summary (and bundle) rewritten.
record() {
  summary+=("$(printf '%-18s %-30s %6s  %s' "$1" "$2" "$3" "$4")")
  [[ "${5:-}" == failed ]] && failures=$((failures + 1))
  write_summary "in progress"
}

# write_summary STATE: OUTDIR/summary.txt as of now (and gpu-check.tar.gz when bundling), each
# replaced whole, so that whatever moment the call is cut off at leaves both readable and current.
write_summary() {
  local state="$1" verdict bytes
  # The tarball first, and again only when a step ran since (a step not run changes no file). The
  # profiler's reports (a few MB each) stay out: their CSV exports carry the counters, and the device
  # returns at most 16 MiB a file.
  if [[ "$bundle" == 1 && "$ran_steps" != "$bundled_at" ]]; then
    bundled_at=$ran_steps
    (cd "$work" && find . -maxdepth 1 -type f ! -name '*.ncu-rep' ! -name '*.part' -printf '%f\n' | LC_ALL=C sort |
       tar czf "$outdir/gpu-check.tar.gz.part" -T - 2>/dev/null) &&
      mv -f "$outdir/gpu-check.tar.gz.part" "$outdir/gpu-check.tar.gz"
    bytes="$(stat -c %s "$outdir/gpu-check.tar.gz" 2>/dev/null || echo 0)"
    bundle_note=""
    (( bytes < 15 * 1024 * 1024 )) ||
      bundle_note="warning: gpu-check.tar.gz is $((bytes / 1024 / 1024)) MiB, near the 16 MiB a returned file may have"
  fi
  if (( failures )); then verdict="$failures step(s) failed or did not run"; else verdict="all steps ok"; fi
  {
    tick
    echo "gpu-check summary ($stamp, ${elapsed}s of ${budget_s}s, $state)"
    printf '%s\n' "${notes[@]}" ${bundle_note:+"$bundle_note"}
    printf '%s\n' "${summary[@]}"
    if [[ "$state" == "in progress" ]]; then
      echo "$verdict so far; the call was cut off here if this is the summary that came back"
    else
      echo "$verdict; logs in $([[ "$bundle" == 1 ]] && echo "$outdir/gpu-check.tar.gz" || echo "$outdir")"
    fi
  } >"$outdir/summary.txt.part" && mv -f "$outdir/summary.txt.part" "$outdir/summary.txt"
}

# run_step NAME LIMIT RESERVE COMMAND...: COMMAND under `timeout`, stdout and stderr in NAME.log; it
# starts only if the budget less RESERVE leaves at least half of LIMIT, and gets at most what is left.
run_step() {
  local name="$1" max_s="$2" keep_s="$3"
  shift 3
  if ! selected "$name"; then
    summary+=("$(printf '%-18s %-30s %6s  %s' "$name" "skipped (not selected)" "-" "")")
    return 0
  fi
  local log="$work/$name.log"
  if [[ -n "$gpu_gate" ]]; then
    record "$name" "NOT RUN (no GPU)" - "" failed
    return 0
  fi
  tick
  local left=$(( budget_s - elapsed - keep_s ))
  local limit=$(( max_s < left ? max_s : left ))
  if (( 2 * left < max_s || limit < 1 )); then
    echo "not run: ${left}s of the ${budget_s}s budget were left for a step allowed ${max_s}s" >"$log"
    record "$name" "NOT RUN (out of time)" - "$name.log" failed
    return 0
  fi
  echo "== $name (limit ${limit}s): $*"
  local t0=$elapsed limit_real inner_real lines
  { echo "\$ $*"; echo "# limit ${limit}s, started $stamp"; } >"$log"
  real_seconds limit_real "$limit"
  real_seconds inner_real $(( limit * 9 / 10 ))
  [[ -n "${unscaled:-}" ]] && limit_real="$limit" inner_real="$(( limit * 9 / 10 ))"
  KBENCH_CHECK_STEP="$name" KBENCH_STEP_SECONDS="$inner_real" \
    timeout --kill-after=3 "$limit_real" "$@" >>"$log" 2>&1
  local rc=$?
  tick
  # On the test's clock as in real time, a step ends at its limit.
  if [[ -n "$clock_file" ]] && (( elapsed > t0 + limit )); then
    elapsed=$(( t0 + limit ))
    echo "$elapsed" >"$clock_file"
  fi
  local took=$(( elapsed - t0 ))
  echo "# exit $rc after ${took}s" >>"$log"
  mapfile -t lines <"$log"
  printf '   | %s\n' "${lines[@]: -3}"
  ran_steps=$((ran_steps + 1))
  case $rc in
    0) record "$name" "ok" "${took}s" "$name.log" ;;
    124|137) record "$name" "TIMEOUT after ${limit}s" "${took}s" "$name.log" failed ;;
    77) record "$name" "SKIPPED (no device)" "${took}s" "$name.log" failed ;;
    *) record "$name" "FAILED (exit $rc)" "${took}s" "$name.log" failed ;;
  esac
}
step() { run_step "$1" "$2" "$reserve_s" "${@:3}"; }       # stages 1-4
final_step() { run_step "$1" "$2" 0 "${@:3}"; }           # stage 5: from the reserve

# merged NAME OUTPUT KEEP PART...: one results document from the parts that were written.
merged() {
  local name="$1" output="$2" keep_s="$3" parts=() part
  shift 3
  for part in "$@"; do [[ -f "$part" ]] && parts+=("$part"); done
  if selected "$name" && [[ -z "$gpu_gate" ]] && (( ${#parts[@]} == 0 )); then
    record "$name" "NOT RUN (no parts)" - "" failed
    return 0
  fi
  unscaled=1 run_step "$name" "$tail_limit_s" "$keep_s" python3 "$repo_root/scripts/merge-results.py" "${parts[@]}" --output "$output"
}

# find_tool NAME: NAME on PATH, else beside ncu or in CUDA's folders (the image need not put them on PATH).
find_tool() {
  local name="$1" ncu_dir="" candidate
  command -v "$1" && return 0
  ncu_dir="$(dirname "$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n 1 || echo .)")"
  for candidate in "$ncu_dir/$name" "$cuda_root/bin/$name" "$cuda_root/$name/$name"; do
    [[ -x "$candidate" ]] && { echo "$candidate"; return 0; }
  done
  return 1
}

# The binaries built elsewhere may not load here (the portable build needs glibc 2.35 or newer): then,
# given the carried .deps/, build them here first (scripts/build-on-device.sh) rather than lose the
# visit, keeping the loader's error that sent us there.
if ! "$kbench" --version >"$work/kbench-load.log" 2>&1; then
  notes+=("$kbench does not run here: $(head -c 300 "$work/kbench-load.log" | head -n 2 | tr '\n' ' ') (kbench-load.log)")
  if [[ -d "$repo_root/.deps" ]]; then
    echo "gpu-check: $kbench does not run here; building on this machine"
    step build-on-device 240 bash "$repo_root/scripts/build-on-device.sh" "$repo_root/build/device"
    if "$repo_root/build/device/apps/kbench/kbench" --version >/dev/null 2>&1; then
      build_dir="$repo_root/build/device"
      kbench="$build_dir/apps/kbench/kbench"
      gpu_tests="$build_dir/tests/gpu/kbench_gpu_tests"
    fi
  fi
else
  rm -f "$work/kbench-load.log"
fi
for binary in "$kbench" "$gpu_tests"; do
  [[ -x "$binary" ]] || notes+=("not built: $binary (build with the 'portable' preset or set KBENCH_BUILD_DIR)")
done

echo "gpu-check: build $build_dir, results $outdir, budget ${budget_s}s"
printf 'gpu-check: %s\n' "${notes[@]}"

# Stage 1: the machine, and whether kbench sees a GPU on it.
step nvidia-smi-before 10 nvidia-smi -q
step info 20 "$kbench" info
if ! grep -Eq '^device 0: +[^ ]' "$work/info.log" 2>/dev/null; then
  why="$(grep -E '^devices:' "$work/info.log" 2>/dev/null | head -n 1 | sed 's/^devices: *//')"
  gpu_gate="kbench info lists no device 0${why:+ ($why)}"
  notes+=("STOPPED: $gpu_gate; no other step runs (info.log)")
  echo "gpu-check: $gpu_gate: stopping"
fi
step plan 10 bash -c '"$1" plan "$2/workloads/kernelbench/level1" "$2/workloads/examples" \
  "$2/workloads/kernelbench/level1-backward" "$2/workloads/examples-backward" --math fp32,tf32 \
  --format json > "$3/plan.json"' plan "$kbench" "$repo_root" "$work"

# Stage 2, the headline: our kernels against cuDNN on the seeds, both math modes, one process per seed
# (each log holds its comparison table), merged into seeds.json.
seed_parts=()
for file in "${seed_files[@]}"; do
  id="$(seed_id "$file")"
  # Problem 76 moves 14 GB per pass (its input alone is 4.3 GB to fill and verify): the longest.
  step "seeds-$id" "$([[ $id == 076 ]] && echo 35 || echo 25)" "$kbench" compare "$file" --backends cuda,cudnn \
    --baseline cudnn --math fp32,tf32 --seed "$input_seed" --time-budget "$run_time_budget" --format json \
    --output "$work/seeds-$id.json"
  seed_parts+=("$work/seeds-$id.json")
done
merged merge-seeds "$work/seeds.json" "$reserve_s" "${seed_parts[@]}"

# Stage 3: every other GPU path once. The GPU tests, each case in a process of its own (a fault fails
# its own case only; none outlives the step).
step gpu-tests 75 bash "$repo_root/scripts/run-gpu-tests.sh" "$gpu_tests"
# The seeds in fp16 and bf16, channels last (issue 24's targets): our tensor-core GEMM and generic
# kernel against cuDNN, one process per dtype, fewer samples.
for dtype in fp16 bf16; do
  step "seeds-$dtype-nhwc" 30 "$kbench" compare "$repo_root/workloads/kernelbench/level1-$dtype-nhwc" \
    --backends cuda,cudnn --baseline cudnn --seed "$input_seed" --iterations 50 --time-budget 3 \
    --format json --output "$work/seeds-$dtype-nhwc.json"
done
# The seeds' backward passes (issue 26's targets: the forward targets apply to each pass) and the small
# backward examples (every op, rank and feature), against cuDNN, fewer samples.
step seeds-backward 30 "$kbench" compare "$repo_root/workloads/kernelbench/level1-backward" \
  --backends cuda,cudnn --baseline cudnn --math fp32,tf32 --seed "$input_seed" --iterations 30 \
  --time-budget 3 --format json --output "$work/seeds-backward.json"
step examples-backward 20 "$kbench" run "$repo_root/workloads/examples-backward" --backends cudnn,cuda \
  --math fp32 --seed "$input_seed" --iterations 20 --time-budget 1 --format json --output "$work/examples-backward.json"
# Every example on cuDNN's choice, our default, `direct` and `direct_tiled`, few samples: the small
# shapes no seed reaches, and the claim that made direct_tiled the default where the GEMM does not pay;
# and the fp32 GEMM whole where the default splits its reduction (what split-K gains).
step examples 20 "$kbench" run "$repo_root/workloads/examples" \
  --backends cudnn,cuda,cuda:direct,cuda:direct_tiled,cuda:implicit_gemm_3xtf32/no_split_k \
  --math fp32 --seed "$input_seed" --iterations 20 --time-budget 1 --format json --output "$work/examples.json"
# Our kernels under compute-sanitizer at small sizes (every family has an example in its envelope).
sanitizer="$(find_tool compute-sanitizer)" || sanitizer=""
sanitize() {  # sanitize NAME LIMIT TOOL SPEC_DIR
  if [[ -z "$sanitizer" ]] && selected "$1" && [[ -z "$gpu_gate" ]]; then
    record "$1" "NOT RUN (no compute-sanitizer)" - "" failed
    return 0
  fi
  step "$1" "$2" "$sanitizer" --tool "$3" --error-exitcode 9 "$kbench" run "$4" --backends cuda:all \
    --iterations 1 --warmups 0 --hot
}
[[ -n "$sanitizer" ]] || notes+=("compute-sanitizer not found on PATH, beside ncu or under $cuda_root: the sanitizer steps did not run")
sanitize memcheck 35 memcheck "$repo_root/workloads/examples"
# The fp16/bf16 and channels-last kernels on every dtype x layout x op example.
sanitize memcheck-half 20 memcheck "$repo_root/workloads/examples-half"
# The backward passes' kernels (wgrad_gemm_ffma, wgrad_depthwise, the forward families on dgrad problems).
sanitize memcheck-backward 20 memcheck "$repo_root/workloads/examples-backward"

# Stage 4: what tunes and explains, in the time left. First whether the timing protocol behaves (eager
# vs graph, cold vs hot, on one small example, cuda and cudnn): every time above depends on it.
step timing-protocol 50 env KBENCH_SEED="$input_seed" KBENCH_PROTOCOL_BUDGET=2 \
  bash "$repo_root/scripts/timing-protocol-check.sh" "$kbench" "$work"
step calibrate 30 "$kbench" calibrate
sanitize racecheck 40 racecheck "$repo_root/workloads/examples"
# Every kernel variant and every cuDNN algorithm, fewer samples (what to tune next): one process per
# seed and math mode, cuDNN's first, merged into variants.json in stage 5 (or by record-gpu-run.py).
variant_parts=()
for file in "${seed_files[@]}"; do
  id="$(seed_id "$file")"
  for math in fp32 tf32; do
    step "variants-$id-$math" 25 "$kbench" run "$file" --backends cudnn:all,cuda:all --math "$math" \
      --seed "$input_seed" --iterations 20 --time-budget 2 --format json --output "$work/variants-$id-$math.json"
    variant_parts+=("$work/variants-$id-$math.json")
  done
done
# Every kernel variant of the fp16 NHWC seeds (the half defaults against /wgmma and direct).
step variants-half 30 "$kbench" run "$repo_root/workloads/kernelbench/level1-fp16-nhwc" --backends cuda:all \
  --seed "$input_seed" --iterations 10 --time-budget 2 --format json --output "$work/variants-half.json"
# Hardware counters of our default kernels on the seeds (needs a runtime where ncu reads them).
step profile 60 bash "$repo_root/scripts/gpu-profile.sh" "$kbench" "$work"
# What is left: the randomised kernel tests again, on other shapes each pass. Too little time left is no
# failure: the soak is a bonus.
tick
soak_s=$(( budget_s - elapsed - reserve_s ))
if (( soak_s >= 30 )) || ! selected gpu-soak || [[ -n "$gpu_gate" ]]; then
  # gpu-soak.sh takes whole real seconds and ends its last seed 10 s before them.
  soak_real_s=$(( soak_s > 10 ? (soak_s - 10) * us_per_s / 1000000 : 0 ))
  step gpu-soak "$soak_s" bash "$repo_root/scripts/gpu-soak.sh" "$gpu_tests" "$soak_real_s"
else
  summary+=("$(printf '%-18s %-30s %6s  %s' gpu-soak "skipped (no time left)" "-" "")")
fi

# Stage 5, from the reserve.
merged merge-variants "$work/variants.json" 0 "${variant_parts[@]}"
if [[ -f "$work/seeds.json" ]] || ! selected figures || [[ -n "$gpu_gate" ]]; then
  figures_args=("$work/seeds.json")
  for kind in variants variants-half; do
    [[ -f "$work/$kind.json" ]] && figures_args+=("--$kind" "$work/$kind.json")
  done
  for document in seeds-fp16-nhwc seeds-bf16-nhwc seeds-backward; do
    [[ -f "$work/$document.json" ]] && figures_args+=("--more" "$work/$document.json")
  done
  unscaled=1 final_step figures "$tail_limit_s" python3 "$repo_root/scripts/gpu-summary.py" "${figures_args[@]}" \
    --output "$work/figures.md"
else
  record figures "NOT RUN (no seeds.json)" - "" failed
fi
gpu_gate="" final_step nvidia-smi-after "$tail_limit_s" nvidia-smi -q

[[ -f "$work/figures.md" ]] && cat "$work/figures.md"
write_summary "finished"
cat "$outdir/summary.txt"
if [[ "$bundle" == 1 ]]; then
  [[ -f "$outdir/gpu-check.tar.gz" ]] && echo "bundled into $outdir/gpu-check.tar.gz"
  rm -rf "$work"
fi
(( failures == 0 ))
