#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, build (CUDA code too, where nvcc is found; a compiler
# warning fails it), run ctest; then the CPU suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (scripts/run-sanitizers.sh, about 10 minutes on 2 cores from a cold cache). GPU tests skip (ctest "Skipped", code 77) without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
KBENCH_FAIL_ON_WARNINGS=1 bash scripts/build.sh default
ctest --preset default --output-on-failure -j "$(nproc)"
bash scripts/run-sanitizers.sh --output-on-failure
