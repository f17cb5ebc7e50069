#!/usr/bin/env bash
# wheel-library-path.sh - prints, colon-separated, the lib/ folders of the image's NVIDIA Python wheels
# that hold what kbench loads at run time: libcudnn.so.9 (nvidia-cudnn-*) and the two libraries cuDNN
# itself opens when it runs, libnvrtc.so.13 (nvidia-cuda-nvrtc, its runtime-compiled kernels) and
# libcublasLt.so.13 (nvidia-cublas); exits 1 and prints nothing where there is none. gpu-check.sh puts
# them first on the library path, so cuDNN and the libraries it opens come from one CUDA release.
python3 - <<'PY' 2>/dev/null
import glob, os, sys
try:
    import nvidia  # the namespace package every nvidia-* wheel installs into
except ImportError:
    sys.exit(1)
folders = []
for root in list(nvidia.__path__):
    for library in ("libcudnn.so.9", "libnvrtc.so.13", "libcublasLt.so.13"):
        for path in sorted(glob.glob(os.path.join(root, "*", "lib", library + "*"))):
            if os.path.dirname(path) not in folders:
                folders.append(os.path.dirname(path))
if not folders:
    sys.exit(1)
print(":".join(folders))
PY
