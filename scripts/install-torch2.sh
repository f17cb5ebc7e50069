#!/usr/bin/env bash
# torch 2.x for the torch.compile test (tests/cli/test_torch_compile.sh): Debian's python3-torch is 1.13,
# which has no torch.compile. PyPI's wheel, pinned, in a venv of Debian's Python (the one whose
# libpython kbench embeds), at $KBENCH_TORCH2_VENV (default ~/.cache/kbench/torch2-venv). PyPI's Linux
# wheel brings NVIDIA's CUDA libraries as dependencies: about 5.4 GB installed, 2.5 minutes on a
# developer's machine. A venv that already imports the pinned version is kept as it is.
set -euo pipefail
venv="${KBENCH_TORCH2_VENV:-$HOME/.cache/kbench/torch2-venv}"
version=2.15.0
if "$venv/bin/python" -c "import sys, torch; sys.exit(torch.__version__.split('+')[0] != '$version')" 2>/dev/null; then
  echo "install-torch2: torch $version present in $venv"
  exit 0
fi
echo "install-torch2: installing torch $version into $venv"
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
/usr/bin/python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "torch==$version"
"$venv/bin/python" -c "import torch; assert hasattr(torch, 'compile'); print('install-torch2: torch', torch.__version__)"
