# The bundle a GPU visit carries, and the commit a build on the device records from it:
#   - scripts/build-gpu-bundle.sh fetches cudnn-frontend's headers before it configures, then builds
#     and packs (with stand-ins for the fetch, vendor-deps and cmake);
#   - scripts/pack-for-gpu.sh refuses a build configured without cuDNN's graph API where cudnn-frontend's
#     headers are here (the documented order once built before fetching them), packs one that has it,
#     and packs a legacy-only build with a note where there are no headers;
#   - it writes .gpu-bundle/COMMIT, "-dirty" with uncommitted changes;
#   - cmake/build_info_generate.cmake, in a copy without .git (as the device gets the tree), takes the
#     commit from KBENCH_COMMIT or .gpu-bundle/COMMIT, so record-gpu-run.py can file its documents;
#     a file that holds no hash gives "unknown commit" and a warning.
source "$(dirname "$0")/lib.sh"
command -v strip >/dev/null || { echo "SKIP: no strip (binutils)"; exit 77; }
repo="$WORK/repo"
mkdir -p "$repo/build/portable/apps/kbench" "$repo/build/portable/tests/gpu" "$WORK/headers"
cp -r "$SRC/scripts" "$repo/"
cp /bin/true "$repo/build/portable/apps/kbench/kbench"      # any executable that strip takes
cp /bin/true "$repo/build/portable/tests/gpu/kbench_gpu_tests"
printf '/build/\n/.gpu-bundle/\n/third_party/\n' >"$repo/.gitignore"
git -C "$repo" init -q && git -C "$repo" add -A &&
  git -C "$repo" -c user.name=t -c user.email=t@t commit -qm bundle || fail "git"
head="$(git -C "$repo" rev-parse HEAD)"
cache() { printf 'KBENCH_ENABLE_CUDNN_FRONTEND:BOOL=ON\nKBENCH_CUDNN_FRONTEND_INCLUDE_DIR:PATH=%s\n' "$1" \
  >"$repo/build/portable/CMakeCache.txt"; }
PACK="bash $repo/scripts/pack-for-gpu.sh"

# Configured before the headers were fetched, which came after: refused, nothing packed.
mkdir -p "$repo/third_party/cudnn-frontend/include"
touch "$repo/third_party/cudnn-frontend/include/cudnn_frontend.h"
cache KBENCH_CUDNN_FRONTEND_INCLUDE_DIR-NOTFOUND
$PACK >"$WORK/out" 2>&1 && fail "a build without the graph API was packed beside its headers"
grep -q "configured without cuDNN's graph API" "$WORK/out" || { cat "$WORK/out"; fail "the refusal does not say why"; }
[[ ! -e "$repo/.gpu-bundle" ]] || fail "a refused bundle was written"
# Configured with them: packed, with the commit.
cache "$repo/third_party/cudnn-frontend/include"
$PACK >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "a build with the graph API was refused"; }
[[ "$(cat "$repo/.gpu-bundle/COMMIT")" == "$head" ]] || fail "COMMIT is '$(cat "$repo/.gpu-bundle/COMMIT")', not $head"
[[ -x "$repo/.gpu-bundle/apps/kbench/kbench" && -x "$repo/.gpu-bundle/tests/gpu/kbench_gpu_tests" ]] || fail "binaries not packed"
# Uncommitted changes: said in COMMIT.
echo "# changed" >>"$repo/scripts/gpu-check.sh"
$PACK >/dev/null 2>&1 || fail "the dirty tree was not packed"
[[ "$(cat "$repo/.gpu-bundle/COMMIT")" == "$head-dirty" ]] || fail "COMMIT of a dirty tree is '$(cat "$repo/.gpu-bundle/COMMIT")'"
# No headers anywhere: a legacy-only bundle, said.
rm -r "$repo/third_party"
cache KBENCH_CUDNN_FRONTEND_INCLUDE_DIR-NOTFOUND
$PACK >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "a legacy-only build without headers was refused"; }
grep -q "legacy API only" "$WORK/out" || fail "the legacy-only bundle is not said"

# scripts/build-gpu-bundle.sh: the headers fetched before CMake configures (a stand-in cmake that
# finds them only if they are there then, as find_path does), then the build and a bundle with the
# graph API. The stand-ins of fetch-cudnn-frontend.sh and vendor-deps.sh write what the real ones do.
mkdir -p "$WORK/bin"
cat >"$repo/scripts/fetch-cudnn-frontend.sh" <<'SH'
#!/usr/bin/env bash
cd "$(dirname "$0")/.." && mkdir -p third_party/cudnn-frontend/include && touch third_party/cudnn-frontend/include/cudnn_frontend.h
SH
cat >"$repo/scripts/vendor-deps.sh" <<'SH'
#!/usr/bin/env bash
cd "$(dirname "$0")/.." && mkdir -p .deps/include && cp -r third_party/cudnn-frontend/include/. .deps/include/
SH
cat >"$WORK/bin/cmake" <<'SH'
#!/usr/bin/env bash
build=build/portable
if [[ "$1" == --preset ]]; then  # configure: cache where cudnn-frontend is, as find_path leaves it
  mkdir -p "$build"
  dir="$PWD/third_party/cudnn-frontend/include"
  [[ -f "$dir/cudnn_frontend.h" ]] || dir=KBENCH_CUDNN_FRONTEND_INCLUDE_DIR-NOTFOUND
  printf 'KBENCH_ENABLE_CUDNN_FRONTEND:BOOL=ON\nKBENCH_CUDNN_FRONTEND_INCLUDE_DIR:PATH=%s\n' "$dir" >"$build/CMakeCache.txt"
  echo "-- kbench: CUDA 13.0, architectures 90, cuDNN ON, cuDNN graph API (cudnn-frontend) $([[ $dir == *NOTFOUND ]] && echo OFF || echo ON)"
elif [[ "$1" == --build ]]; then
  mkdir -p "$build/apps/kbench" "$build/tests/gpu"
  cp /bin/true "$build/apps/kbench/kbench" && cp /bin/true "$build/tests/gpu/kbench_gpu_tests"
fi
SH
chmod +x "$WORK/bin/cmake"
rm -rf "$repo/build" "$repo/.gpu-bundle" "$repo/third_party" "$repo/.deps"
PATH="$WORK/bin:$PATH" bash "$repo/scripts/build-gpu-bundle.sh" >"$WORK/out" 2>&1 || { cat "$WORK/out"; fail "build-gpu-bundle failed"; }
grep -q 'cuDNN graph API (cudnn-frontend) ON' "$WORK/out" || { cat "$WORK/out"; fail "configured before the headers were fetched"; }
[[ -f "$repo/.gpu-bundle/COMMIT" && -f "$repo/.deps/include/cudnn_frontend.h" ]] || fail "no bundle, or .deps without the headers"

# The device's copy of the tree: no .git, the bundle's COMMIT beside it.
mkdir -p "$WORK/copy/.gpu-bundle"
cp "$repo/.gpu-bundle/COMMIT" "$WORK/copy/.gpu-bundle/"
build_string() {
  (cd "$WORK" && env "$@" cmake -DSOURCE_DIR="$WORK/copy" -DOUTPUT="$WORK/build_info.cpp" -DFACTS=facts \
    -DGIT="$(command -v git)" -P "$SRC/cmake/build_info_generate.cmake" >"$WORK/cmake.log" 2>&1) || fail "cmake -P"
  sed -n 's/.*return "\(.*\) · facts".*/\1/p' "$WORK/build_info.cpp"
}
[[ "$(build_string)" == "commit ${head:0:12}-dirty" ]] || fail "the build without .git says '$(build_string)'"
[[ "$(build_string KBENCH_COMMIT=abcdef0123)" == "commit abcdef0123" ]] || fail "KBENCH_COMMIT is not taken"
echo "not a hash" >"$WORK/copy/.gpu-bundle/COMMIT"
[[ "$(build_string)" == "unknown commit" ]] || fail "a COMMIT without a hash gave '$(build_string)'"
tr -s ' \n' '  ' <"$WORK/cmake.log" | grep -q "not a commit hash" || fail "no warning for a COMMIT without a hash"
echo "PASS"
