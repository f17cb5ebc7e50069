#!/usr/bin/env bash
# gpu-profile.sh KBENCH OUTDIR [SPEC_DIR] - Nsight Compute counters of the cuda backend's default
# kernel on each seed and math mode, and of the variants whose A/B matters most (problem 50 on wgmma):
# the first launch of the main kernel (the verification run),
# one ncu call per (seed, math) so a failure loses one row only. Most informative first, so a time
# limit cuts the least useful ones.
#
# Writes OUTDIR/ncu-<seed>-<math>[-<variant tag>].ncu-rep, its .csv (ncu --page raw), .log and the run's .kbench.json. Clocks stay as the machine has
# them (--clock-control none: kbench never changes the GPU's settings). Where ncu cannot read the
# counters (some container runtimes) every row fails fast and the logs say why.
set -u -o pipefail

kbench="${1:?usage: gpu-profile.sh KBENCH OUTDIR [SPEC_DIR]}"
outdir="${2:?usage: gpu-profile.sh KBENCH OUTDIR [SPEC_DIR]}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
specs="${3:-$repo_root/workloads/kernelbench/level1}"

# ncu on PATH, else where CUDA or Nsight Compute install it (KBENCH_CUDA_ROOT: gpu-check.sh's).
ncu_bin="$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu "${KBENCH_CUDA_ROOT:-/usr/local/cuda}/bin/ncu" 2>/dev/null | tail -n 1)"
if [[ -z "$ncu_bin" || ! -x "$ncu_bin" ]]; then
  echo "gpu-profile: ncu not found" >&2
  exit 3
fi

# The main kernel of every cuda family (the weight packing and zero-fill kernels are left out).
kernels='regex:igemm_conv_kernel|igemm_resident_kernel|igemm_wgmma_kernel|depthwise2d_kernel|direct_conv_kernel'
# Speed of light (compute / memory %), occupancy, launch facts, warp stall reasons, issue slots.
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
          --section SchedulerStats --section ComputeWorkloadAnalysis)

failures=0
# Rows: seed, math, and optionally a forced variant (tagged by its last part in the file names).
for row in "050 tf32" "050 tf32 implicit_gemm_tf32/wgmma" "077 tf32" "050 fp32" "077 fp32" "076 tf32" "076 fp32" \
           "084 fp32"; do
  read -r seed math variant <<<"$row"
  spec="$(ls "$specs"/"$seed"_*.yaml 2>/dev/null | head -n 1)"
  [[ -n "$spec" ]] || { echo "gpu-profile: no spec for seed $seed in $specs" >&2; failures=$((failures + 1)); continue; }
  name="ncu-$seed-$math${variant:+-${variant##*/}}"
  backend="cuda${variant:+:$variant}"
  echo "== $name: $(basename "$spec")"
  if "$ncu_bin" --clock-control none -k "$kernels" -c 1 "${sections[@]}" --export "$outdir/$name" --force-overwrite \
       "$kbench" run "$spec" --backends "$backend" --math "$math" --iterations 1 --warmups 0 --hot \
       --format json --output "$outdir/$name.kbench.json" >"$outdir/$name.log" 2>&1 &&
     "$ncu_bin" --import "$outdir/$name.ncu-rep" --csv --page raw >"$outdir/$name.csv" 2>>"$outdir/$name.log"; then
    grep -c '' "$outdir/$name.csv" | sed 's/^/   csv lines: /'
  else
    failures=$((failures + 1))
    tail -n 3 "$outdir/$name.log" | sed 's/^/   | /'
  fi
done
(( failures == 0 ))
