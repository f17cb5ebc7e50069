# Sourced by tests/cli/test_gpu_check_*.sh after lib.sh: a repository in $WORK/repo with the real
# scripts and workloads, whose build is the stand-ins of this folder, their tools on PATH ($WORK/bin)
# and the image's Python wheels in $WORK/py. `visit NAME BUDGET [VAR=VALUE...]` runs gpu-check.sh
# into $WORK/NAME on the test clock (a 470 s visit in seconds, the same steps whatever the load).
FAKES="$SRC/tests/cli/gpu_check_fakes"
repo="$WORK/repo"
mkdir -p "$repo/build/apps/kbench" "$repo/build/tests/gpu" "$WORK/bin" "$WORK/cuda/bin" "$WORK/tmp"
cp -r "$SRC/scripts" "$repo/"
ln -s "$SRC/workloads" "$repo/workloads"
ln -s "$FAKES/kbench" "$repo/build/apps/kbench/kbench"
ln -s "$FAKES/kbench_gpu_tests" "$repo/build/tests/gpu/kbench_gpu_tests"
for tool in nvidia-smi ncu compute-sanitizer; do ln -s "$FAKES/$tool" "$WORK/bin/$tool"; done
# The interpreter itself, not a version manager's shim in front of it (pyenv's costs most of a second
# a start), Debian's where there is one (no site-packages to scan at start).
python="/usr/bin/python3"
[[ -x "$python" ]] || python="$(python3 -c 'import sys; print(sys.executable)')"
ln -s "$python" "$WORK/bin/python3"
# The image's wheels: cuDNN in nvidia/cudnn, nvrtc and cuBLASLt in nvidia/cu13 (CUDA 13's layout).
mkdir -p "$WORK/py/nvidia/cudnn/lib" "$WORK/py/nvidia/cu13/lib"
touch "$WORK/py/nvidia/cudnn/lib/libcudnn.so.9" "$WORK/py/nvidia/cu13/lib/libnvrtc.so.13" \
  "$WORK/py/nvidia/cu13/lib/libcublasLt.so.13"

# Plausible seconds per step (per process where a step runs several: timing-protocol runs kbench 4
# times, profile ncu 8 times, gpu-tests one case of three per process).
cat >"$WORK/times" <<'TIMES'
nvidia-smi 1
info 1
plan 2
seeds-050 10
seeds-076 20
seeds-077 10
seeds-084 12
gpu-tests 24
seeds-fp16-nhwc 12
seeds-bf16-nhwc 12
seeds-backward 20
examples-backward 6
examples 10
memcheck 20
memcheck-half 15
memcheck-backward 15
calibrate 12
timing-protocol 5
racecheck 20
variants-half 12
profile 40
* 12
TIMES
printf 'nvidia-smi 1\ninfo 1\n* 100000\n' >"$WORK/hang-times"  # every other step hangs

STAGES_1_TO_3=(nvidia-smi-before info plan seeds-050 seeds-076 seeds-077 seeds-084 gpu-tests seeds-fp16-nhwc
               seeds-bf16-nhwc seeds-backward examples-backward examples memcheck memcheck-half memcheck-backward)
STAGE_4=(timing-protocol calibrate racecheck variants-050-fp32 variants-050-tf32 variants-076-fp32 variants-076-tf32
         variants-077-fp32 variants-077-tf32 variants-084-fp32 variants-084-tf32 variants-half profile)

# visit NAME BUDGET [VAR=VALUE...]: gpu-check into $WORK/NAME, its output in $WORK/NAME.txt. A
# step's real limit is 3/100 of its seconds: a hang costs little real time, a stand-in that answers has
# a third of a second at least.
visit() {
  local name="$1" budget="$2"
  shift 2
  echo 0 >"$WORK/$name.clock"
  (cd "$WORK" && env PATH="$WORK/bin:$PATH" PYTHONPATH="$WORK/py" TMPDIR="$WORK/tmp" KBENCH_CUDA_ROOT="$WORK/cuda" \
    KBENCH_BUILD_DIR="$repo/build" KBENCH_CHECK_BUDGET_S="$budget" KBENCH_CHECK_TIME_SCALE=0.03 \
    KBENCH_CHECK_CLOCK="$WORK/$name.clock" FAKE_GPU="NVIDIA H100 80GB HBM3" FAKE_TIMES="$WORK/times" \
    FAKE_PIDS="$WORK/pids" FAKE_LIB="$FAKES/fake_lib.sh" KBENCH_SEED=1 "$@" \
    bash "$repo/scripts/gpu-check.sh" "$WORK/$name" >"$WORK/$name.txt" 2>&1)
}
# status_of NAME STEP: the status column of STEP in NAME's summary.
status_of() { awk -v step="$2" '$1 == step { $1 = ""; sub(/^ +/, ""); print; exit }' "$WORK/$1/summary.txt"; }
# expect_status NAME REGEX STEP...: each STEP's status in NAME's summary starts with REGEX.
expect_status() {
  local name="$1" regex="$2" step
  shift 2
  for step in "$@"; do
    [[ "$(status_of "$name" "$step")" =~ ^($regex) ]] ||
      { cat "$WORK/$name/summary.txt"; fail "$name: $step is '$(status_of "$name" "$step")', expected /$regex/"; }
  done
}
elapsed_of() { sed -n 's/^gpu-check summary ([^,]*, \([0-9]*\)s of .*/\1/p' "$WORK/$1/summary.txt"; }
# alive: whether a stand-in recorded in FAKE_PIDS still runs (a zombie, dead but not reaped, does not).
alive() {
  local pid state
  for pid in $(cat "$WORK/pids" 2>/dev/null); do
    # /proc/PID/stat: the state is the field after the parenthesised command name.
    state="$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null)" && [[ "$state" != Z* ]] && return 0
  done
  return 1
}
