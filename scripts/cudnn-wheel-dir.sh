#!/usr/bin/env bash
# cudnn-wheel-dir.sh - prints the folder of the cuDNN that the image's Python wheels carry
# (nvidia-cudnn-*: include/ and lib/ below it) and exits 0, or prints nothing and exits 1 where there
# is none. gpu-check.sh puts its lib/ on the library path; build-on-device.sh builds against it.
dir="$(python3 -c 'import nvidia.cudnn as m; print(list(m.__path__)[0])' 2>/dev/null)" && [[ -d "$dir/lib" ]] || exit 1
echo "$dir"
