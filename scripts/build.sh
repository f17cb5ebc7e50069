#!/usr/bin/env bash
# Configures and builds one CMake preset (default: "default", CUDA where nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
