#!/usr/bin/env bash
# The whole test suite on a fresh machine: install, build (CUDA code too, where nvcc is found), run ctest.
# GPU tests skip (ctest "Not Run", skip code 77) where no device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh default
ctest --preset default --output-on-failure -j "$(nproc)"
