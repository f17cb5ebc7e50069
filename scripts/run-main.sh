#!/usr/bin/env bash
# The main job on a fresh machine: install and build only what it runs (the kbench executable: no test
# programs, no torch or chromium, which scripts/run-tests.sh installs), then run the KernelBench headline suite
# and the small examples on every backend available here, and plan what each backend would run for them.
# Without a GPU the CPU reference runs what fits the time budget, and the rest is reported with its
# analysis (shapes, bytes, FLOPs, floors) and why it was skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --main
bash scripts/build.sh default kbench
mkdir -p out
set +e
./build/default/apps/kbench/kbench run workloads/kernelbench/level1 workloads/examples workloads/examples-backward --seed 2026 \
  --output out/main-job.json --format json "$@"
status=$?
# Which kernel every backend would run for each workload and math mode, and why (planned for the GPU
# present, or the default --target without one).
./build/default/apps/kbench/kbench plan workloads/kernelbench/level1 workloads/examples workloads/examples-backward \
  workloads/kernelbench/level1-backward --math fp32,tf32 \
  --format json > out/main-job-plan.json
plan_status=$?
set -e
# The run's peak host memory (host_memory.peak_rss_bytes of its document; "unknown" without one).
peak=$(python3 -c 'import json, sys; print("%.1f GB" % (json.load(open(sys.argv[1]))["host_memory"]["peak_rss_bytes"] / 1e9))' \
  out/main-job.json 2>/dev/null || echo unknown)
echo "main job: JSON report in out/main-job.json (exit status $status, peak host memory $peak), plans in out/main-job-plan.json (exit status $plan_status)"
[ $status -ne 0 ] && exit $status
exit $plan_status
