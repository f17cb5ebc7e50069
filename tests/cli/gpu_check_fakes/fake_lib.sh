# Shared by the stand-ins of tests/cli/test_gpu_check_visit.sh.
# fake_time [DIVISOR]: spends FAKE_TIMES's seconds for $KBENCH_CHECK_STEP (lines "STEP SECONDS", "*"
# for any other step), divided by DIVISOR, on gpu-check's test clock (KBENCH_CHECK_CLOCK): adds them
# to it and returns at once, or, where the step has 100000 seconds or more, adds them and hangs for real until
# killed (gpu-check sets its clock back to the step's limit). Records its pid in FAKE_PIDS, so the
# test can check that nothing outlives its step. The stand-ins find this file through FAKE_LIB; bash
# alone, no other process (a process costs time).
fake_time() {
  [[ -n "${FAKE_PIDS:-}" ]] && echo "$$" >>"$FAKE_PIDS"
  local step seconds found="" other=0 now
  while read -r step seconds; do
    [[ "$step" == "${KBENCH_CHECK_STEP:-}" ]] && found="$seconds"
    [[ "$step" == "*" ]] && other="$seconds"
  done <"${FAKE_TIMES:-/dev/null}"
  seconds="${found:-$other}"
  if [[ -n "${KBENCH_CHECK_CLOCK:-}" ]]; then
    read -r now <"$KBENCH_CHECK_CLOCK"
    echo $(( now + seconds / ${1:-1} )) >"$KBENCH_CHECK_CLOCK"
  fi
  (( seconds < 100000 )) || exec sleep 100000
}
# fake_results SPEC MATHS: a kbench.results/1 document, cuda and cudnn default results per seed in
# SPEC (a seed's file, or a folder: the four headline problems) and math mode, all verified.
fake_results() {
  local spec="$1" maths="$2" seeds=() first=1 math id backend
  if [[ -f "$spec" ]]; then seeds=("$(basename "$spec" | cut -c1-3)"); else seeds=(050 076 077 084); fi
  printf '{"schema": "kbench.results/1", "kbench_version": "0.0", "device": "%s (device 0, sm_90, 132 SMs)",\n' "${FAKE_GPU:-no CUDA device}"
  printf ' "build": "commit 1234567abcde · Release · fake", "started_at": "2026-12-05T10:00:00Z", "interrupted": false,\n'
  printf ' "notes": [], "settings": {"backends": ["cuda", "cudnn"], "math_modes": ["%s"]},\n' "${maths//,/\", \"}"
  printf ' "workloads": ['
  for id in "${seeds[@]}"; do
    (( first )) || printf ', '; first=0
    printf '{"name": "kernelbench-l1-%s-%s"}' "$id" "$(basename "$spec" .yaml)"
  done
  printf '],\n "results": ['
  first=1
  for id in "${seeds[@]}"; do
    for math in ${maths//,/ }; do
      for backend in cuda cudnn; do
        (( first )) || printf ',\n  '; first=0
        printf '{"workload": "kernelbench-l1-%s-%s", "backend": "%s", "variant": "", "implementation": "%s-default",' \
          "$id" "$(basename "$spec" .yaml)" "$backend" "$backend"
        printf ' "math_requested": "%s", "math_used": "%s", "status": "ok", "reason": "", "headroom": 1.5,' "$math" "$math"
        printf ' "timing": {"stats": {"median": %s}}}' "$([[ $backend == cuda ]] && echo 0.001 || echo 0.002)"
      done
    done
  done
  printf ']}\n'
}
