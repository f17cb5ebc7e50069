#!/usr/bin/env bash
# The main job on a fresh machine: install, build, then run the KernelBench seed suite and the
# small examples on every backend available here. Without a GPU the CPU reference runs what fits the
# time budget, and the rest is reported with its analysis (shapes, bytes, FLOPs, floors) and why it was skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh default
mkdir -p out
set +e
./build/default/apps/kbench/kbench run workloads/kernelbench/level1 workloads/examples --seed 2026 \
  --output out/main-job.json --format json "$@"
status=$?
set -e
echo "main job: JSON report in out/main-job.json (exit status $status)"
exit $status
