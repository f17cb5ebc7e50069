#!/usr/bin/env bash
# Collects kbench's host dependencies into .deps/ (git-ignored, ~5 MB) for building on a machine that has
# a compiler, CMake and CUDA but none of the Debian -dev packages (the GPU machine): every dependency but
# yaml-cpp is header-only there, and yaml-cpp travels as its static archive. Use it as
#   cmake -S . -B build/device -DKBENCH_DEPS_DIR=$PWD/.deps -DKBENCH_PORTABLE=ON -DCMAKE_BUILD_TYPE=Release
# with `.deps` in the device run's carry list.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
rm -rf .deps
mkdir -p .deps/include .deps/lib .deps/cmake
for d in CLI fmt nlohmann doctest yaml-cpp; do cp -r "/usr/include/$d" .deps/include/; done
cp /usr/lib/x86_64-linux-gnu/libyaml-cpp.a .deps/lib/
cp /usr/lib/cmake/doctest/doctest.cmake /usr/lib/cmake/doctest/doctestAddTests.cmake .deps/cmake/
# cudnn-frontend (cuDNN's graph API), where scripts/fetch-cudnn-frontend.sh got it: found there by CMake.
if [ -f third_party/cudnn-frontend/include/cudnn_frontend.h ]; then
  cp -r third_party/cudnn-frontend/include/. .deps/include/
fi
echo "vendor-deps: $(du -sh .deps | cut -f1) in .deps"
