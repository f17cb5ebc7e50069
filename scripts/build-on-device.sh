#!/usr/bin/env bash
# build-on-device.sh [BUILD_DIR] - builds kbench and its GPU tests on the GPU machine itself, for when
# the binaries built here do not load there (other system libraries: the portable build needs glibc
# 2.35 or newer). Needs .deps/ (scripts/vendor-deps.sh, carried with the device run), nvcc and CMake
# there. cuDNN comes from the image's Python wheel (nvidia.cudnn, headers and library) where there is
# one, so the build and gpu-check.sh's LD_LIBRARY_PATH agree; else from the system, else the build
# has no cuDNN backend and runs our kernels alone. Builds only what gpu-check.sh runs.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$repo_root/build/device}"
[[ -d "$repo_root/.deps" ]] || { echo "build-on-device: no .deps/ (run scripts/vendor-deps.sh and carry .deps)" >&2; exit 2; }

args=(-S "$repo_root" -B "$build_dir" -DKBENCH_DEPS_DIR="$repo_root/.deps" -DKBENCH_PORTABLE=ON
      -DCMAKE_BUILD_TYPE=Release)
command -v ninja >/dev/null && args+=(-G Ninja)
if cudnn_dir="$(bash "$repo_root/scripts/cudnn-wheel-dir.sh")" && [[ -f "$cudnn_dir/include/cudnn.h" ]]; then
  cudnn_library="$(ls "$cudnn_dir"/lib/libcudnn.so* 2>/dev/null | head -n 1)"
  [[ -n "$cudnn_library" ]] &&
    args+=(-DKBENCH_CUDNN_INCLUDE_DIR="$cudnn_dir/include" -DKBENCH_CUDNN_LIBRARY="$cudnn_library")
fi
cmake "${args[@]}"
cmake --build "$build_dir" --target kbench kbench_gpu_tests -j "$(nproc)"
echo "build-on-device: $build_dir"
