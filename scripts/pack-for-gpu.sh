#!/usr/bin/env bash
# pack-for-gpu.sh [BUILD_DIR] - copies what a GPU visit needs from the portable build (default
# build/portable) into .gpu-bundle/ (git-ignored), laid out like a build directory, so a device `run`
# can carry it instead of the whole build; with .deps/ (scripts/vendor-deps.sh) beside it, gpu-check can
# rebuild there if these binaries do not run:
#   run(command="KBENCH_BUILD_DIR=.gpu-bundle KBENCH_CHECK_BUNDLE=1 bash scripts/gpu-check.sh $OUT",
#       carry=[".gpu-bundle", ".deps"])
# scripts/build-gpu-bundle.sh runs the whole sequence (headers, .deps, build, this) in the right order.
# Refuses (exit 1) a build without cuDNN's graph API where cudnn-frontend's headers are here to build
# it: configured before scripts/fetch-cudnn-frontend.sh ran, its cuDNN baseline would be the legacy API
# alone, weaker than what PyTorch runs. Writes .gpu-bundle/COMMIT (the commit, "-dirty" with uncommitted
# changes), from which a build on the device, without .git, takes its commit (cmake/build_info_generate.cmake).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/portable}"
for f in apps/kbench/kbench tests/gpu/kbench_gpu_tests; do
  [ -x "$build/$f" ] || { echo "pack-for-gpu: $build/$f is missing; build the portable preset first" >&2; exit 1; }
done
headers=""
for candidate in third_party/cudnn-frontend/include .deps/include; do
  [ -f "$candidate/cudnn_frontend.h" ] && { headers="$candidate"; break; }
done
frontend="$(sed -n 's/^KBENCH_CUDNN_FRONTEND_INCLUDE_DIR:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)"
enabled="$(sed -n 's/^KBENCH_ENABLE_CUDNN_FRONTEND:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)"
if [[ -z "$frontend" || "$frontend" == *NOTFOUND || ! -f "$frontend/cudnn_frontend.h" || "$enabled" == OFF ]]; then
  if [[ -n "$headers" ]]; then
    echo "pack-for-gpu: $build was configured without cuDNN's graph API (cudnn-frontend: '${frontend:-not searched}'" \
         "${enabled:+, KBENCH_ENABLE_CUDNN_FRONTEND=$enabled}), though $headers has its headers: configure again" \
         "(cmake --preset portable) and rebuild, or run scripts/build-gpu-bundle.sh" >&2
    exit 1
  fi
  echo "pack-for-gpu: note: no cudnn-frontend headers (scripts/fetch-cudnn-frontend.sh): cuDNN's legacy API only"
fi
rm -rf .gpu-bundle
mkdir -p .gpu-bundle/apps/kbench .gpu-bundle/tests/gpu
cp "$build/apps/kbench/kbench" .gpu-bundle/apps/kbench/
cp "$build/tests/gpu/kbench_gpu_tests" .gpu-bundle/tests/gpu/
strip --strip-debug .gpu-bundle/apps/kbench/kbench .gpu-bundle/tests/gpu/kbench_gpu_tests
commit="$(git rev-parse HEAD)"
[[ -z "$(git status --porcelain --untracked-files=no)" ]] || commit+="-dirty"
echo "$commit" > .gpu-bundle/COMMIT
echo "pack-for-gpu: $(du -sh .gpu-bundle | cut -f1) in .gpu-bundle (commit $commit)"
if [[ -d .deps ]]; then
  carried_kib=$(du -sk .gpu-bundle .deps | awk '{ s += $1 } END { print s }')
  echo "pack-for-gpu: .gpu-bundle and .deps: $((carried_kib / 1024)) MiB of the 64 MiB a device call carries"
  (( carried_kib < 60 * 1024 )) || echo "pack-for-gpu: warning: little room is left for the working tree beside them"
else
  echo "pack-for-gpu: no .deps/ yet: run scripts/vendor-deps.sh too, and carry both"
fi
echo "needs on the GPU machine: the NVIDIA driver and libcudnn.so.9 on the library path:"
ldd .gpu-bundle/apps/kbench/kbench | grep -v -E 'linux-vdso|ld-linux|libc.so|libm.so|libgcc_s|libpthread|libdl|librt' || true
