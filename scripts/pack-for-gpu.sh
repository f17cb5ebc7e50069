#!/usr/bin/env bash
# Copies what a GPU visit needs from the portable build into .gpu-bundle/ (git-ignored, a few MB),
# laid out like a build directory, so a device `run` can carry it instead of the whole build; with
# .deps/ (scripts/vendor-deps.sh) beside it, gpu-check can rebuild there if these binaries do not run:
#   run(command="KBENCH_BUILD_DIR=.gpu-bundle KBENCH_CHECK_BUNDLE=1 scripts/gpu-check.sh $OUT",
#       carry=[".gpu-bundle", ".deps"])
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/portable}"
for f in apps/kbench/kbench tests/gpu/kbench_gpu_tests; do
  [ -x "$build/$f" ] || { echo "pack-for-gpu: $build/$f is missing; build the portable preset first" >&2; exit 1; }
done
rm -rf .gpu-bundle
mkdir -p .gpu-bundle/apps/kbench .gpu-bundle/tests/gpu
cp "$build/apps/kbench/kbench" .gpu-bundle/apps/kbench/
cp "$build/tests/gpu/kbench_gpu_tests" .gpu-bundle/tests/gpu/
strip --strip-debug .gpu-bundle/apps/kbench/kbench .gpu-bundle/tests/gpu/kbench_gpu_tests
git rev-parse HEAD > .gpu-bundle/COMMIT
echo "pack-for-gpu: $(du -sh .gpu-bundle | cut -f1) in .gpu-bundle (commit $(cut -c1-12 .gpu-bundle/COMMIT))"
[[ -d .deps ]] || echo "pack-for-gpu: no .deps/ yet: run scripts/vendor-deps.sh too, and carry both"
echo "needs on the GPU machine: the NVIDIA driver and libcudnn.so.9 on the library path:"
ldd .gpu-bundle/apps/kbench/kbench | grep -v -E 'linux-vdso|ld-linux|libc.so|libm.so|libgcc_s|libpthread|libdl|librt' || true
