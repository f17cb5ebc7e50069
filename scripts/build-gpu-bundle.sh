#!/usr/bin/env bash
# build-gpu-bundle.sh - everything a GPU visit carries, in the order that gives it cuDNN's graph API:
#   1. cudnn-frontend's headers (scripts/fetch-cudnn-frontend.sh), before CMake configures, which is
#      when it looks for them;
#   2. .deps/ (scripts/vendor-deps.sh: the host dependencies and those headers, for a build on the
#      device when the bundle's binaries do not load there);
#   3. the portable preset configured afresh and built, kbench and its GPU tests only;
#   4. .gpu-bundle/ (scripts/pack-for-gpu.sh, which refuses a build without the graph API when the
#      headers exist).
# Then one device run carries .gpu-bundle and .deps (docs/perf-notes.md, "How to run it").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/fetch-cudnn-frontend.sh
bash scripts/vendor-deps.sh
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
configure_log="$(mktemp)"
trap 'rm -f "$configure_log"' EXIT
cmake --preset portable >"$configure_log" 2>&1 || { cat "$configure_log"; exit 1; }
grep -E 'kbench: CUDA' "$configure_log" || true  # says whether the graph API is in
cmake --build --preset portable -j "$(nproc)" --target kbench kbench_gpu_tests
bash scripts/pack-for-gpu.sh build/portable
