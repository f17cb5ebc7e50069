#!/usr/bin/env bash
# Configures and builds one CMake preset (default: "default", CUDA where nvcc is found): every target, or
# only the targets named after the preset (scripts/build.sh default kbench). With KBENCH_FAIL_ON_WARNINGS=1 a
# compiler warning fails it (the test command sets it, so CI fails on a new warning in our code). A log scan,
# not -Werror: the flags, and so ccache's hits, stay those of every other build, and a cached object's
# warnings are replayed, so a fresh build dir sees every one.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
shift || true
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake --preset "$preset" >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
if [ "${KBENCH_FAIL_ON_WARNINGS:-0}" != 1 ]; then
  cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
  exit 0
fi
log="build/$preset-build.log"
mkdir -p build
cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}" 2>&1 | tee "$log"
# GCC/Clang ("warning:"), nvcc's front end ("warning #177-D:"), nvcc and ptxas ("nvcc warning :").
if grep -Eq 'warning( #[0-9]+-D)?:|warning :' "$log"; then
  echo "build.sh: the build printed $(grep -Ec 'warning( #[0-9]+-D)?:|warning :' "$log") warning(s) (full log: $log):" >&2
  grep -E 'warning( #[0-9]+-D)?:|warning :' "$log" | sort | uniq -c | sort -rn | head -20 >&2
  exit 1
fi
