#!/usr/bin/env bash
# Fetches the C++ headers of NVIDIA's cudnn-frontend (MIT, header-only), which the cuDNN backend's graph
# API needs (kernels/cudnn/graph/), into third_party/cudnn-frontend/include (git-ignored). They come from
# the pinned PyPI wheel nvidia-cudnn-frontend (its include/ folder; the wheel's Python parts are not used).
# Best effort: without pip or the network it says so and exits 0, and kbench builds with cuDNN's legacy
# API only (`kbench info` says which). Run by scripts/install-deps.sh; a present copy of the pinned
# version is kept.
set -uo pipefail
cd "$(dirname "$0")/.."
version="1.32.0"  # KBENCH_CUDNN_FRONTEND_VERSION: docs/gpu-runtime.md names it too
dest="third_party/cudnn-frontend"
stamp="$dest/VERSION"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$version" && -f "$dest/include/cudnn_frontend.h" ]]; then
  echo "fetch-cudnn-frontend: cudnn-frontend $version present"
  exit 0
fi

pip_cmd=()
for python in python3 /usr/bin/python3; do
  if command -v "$python" >/dev/null 2>&1 && "$python" -m pip --version >/dev/null 2>&1; then
    pip_cmd=("$python" -m pip)
    break
  fi
done
if ((${#pip_cmd[@]} == 0)); then
  echo "fetch-cudnn-frontend: no pip; building without cuDNN's graph API"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Any wheel of the version carries the same headers: ask for one by tag, whatever this Python is.
if ! timeout 300 "${pip_cmd[@]}" download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
     --platform manylinux_2_28_x86_64 "nvidia-cudnn-frontend==$version" -d "$tmp/wheel" >"$tmp/pip.log" 2>&1; then
  echo "fetch-cudnn-frontend: pip could not download nvidia-cudnn-frontend==$version; building without" \
       "cuDNN's graph API ($(tail -n 1 "$tmp/pip.log"))"
  exit 0
fi
wheel="$(ls "$tmp"/wheel/*.whl 2>/dev/null | head -n 1)"
if ! python3 - "$wheel" "$tmp/unpacked" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith("include/") or "/licenses/" in n or n.endswith("/LICENSE.txt")]
    if "include/cudnn_frontend.h" not in names:
        sys.exit("the wheel has no include/cudnn_frontend.h")
    for n in names:
        z.extract(n, out)
PY
then
  echo "fetch-cudnn-frontend: could not unpack $wheel; building without cuDNN's graph API"
  exit 0
fi
rm -rf "$dest"
mkdir -p "$dest"
mv "$tmp/unpacked/include" "$dest/include"
find "$tmp/unpacked" -path '*licenses*' -type f -exec cp {} "$dest/" \; 2>/dev/null
echo "$version" >"$stamp"
echo "fetch-cudnn-frontend: cudnn-frontend $version headers in $dest/include"
