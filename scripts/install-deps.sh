#!/usr/bin/env bash
# Installs what kbench needs to build and test from Debian packages, skipping what is present.
# CUDA (nvcc, cuDNN) is optional: it is used where /usr/local/cuda has it, never installed here.
set -euo pipefail

packages=(cmake ninja-build ccache g++ pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev
          doctest-dev python3 python3-jsonschema
          python3-torch python3-numpy libpython3.11  # the torch backend's CPU test (tests/cli/test_torch_backend.sh)
          python3-venv  # torch 2.x's venv for the torch.compile test (scripts/install-torch2.sh)
          clang libclang-rt-dev  # libFuzzer and clang's sanitizer runtimes: scripts/fuzz.sh, in the sanitizer stage
          chromium)  # headless browser: tests/cli/test_html_chromium.sh renders the HTML report
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
# cudnn-frontend's headers for cuDNN's graph API, best effort (never fails the install): without them
# kbench builds with cuDNN's legacy API only.
bash "$(dirname "$0")/fetch-cudnn-frontend.sh" || echo "install-deps: cudnn-frontend not fetched; building without cuDNN's graph API"
# torch 2.x from PyPI for the torch.compile test. In CI it must be there (the test fails without it
# there rather than skip); elsewhere a failed install leaves that test skipping.
if [ "${CI:-}" = true ]; then
  bash "$(dirname "$0")/install-torch2.sh"
else
  bash "$(dirname "$0")/install-torch2.sh" || echo "install-deps: torch 2.x not installed; tests/cli/test_torch_compile.sh will skip"
fi
