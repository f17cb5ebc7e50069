#!/usr/bin/env bash
# Configures and builds one CMake preset (default: "default", CUDA where nvcc is found): every target, or
# only the targets named after the preset (scripts/build.sh default kbench).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
shift || true
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake --preset "$preset" >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
