#!/usr/bin/env bash
# Installs what kbench needs to build and test from Debian packages, skipping what is present.
# CUDA (nvcc, cuDNN) is optional: it is used where /usr/local/cuda has it, never installed here.
# --main: only what building the kbench executable needs (scripts/run-main.sh); the tests' torch, numpy,
# clang and chromium (about a gigabyte) are left to scripts/run-tests.sh. --list: print the packages and stop.
set -euo pipefail
main_only=0
list_only=0
for arg in "$@"; do
  case "$arg" in
    --main) main_only=1 ;;
    --list) list_only=1 ;;
    *) echo "install-deps: error: unknown option '$arg'; expected --main and/or --list" >&2; exit 2 ;;
  esac
done

packages=(cmake ninja-build ccache g++ pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev
          doctest-dev)  # doctest: configuring with the tests on (the default) looks for it
if [ $main_only -eq 0 ]; then
  packages+=(python3 python3-jsonschema
             python3-torch python3-numpy libpython3.11  # the torch backend's CPU test (tests/cli/test_torch_backend.sh)
             python3-torchvision  # scripts/import-torchvision.py's test (tests/cli/test_import_torchvision.sh)
             python3-venv  # torch 2.x's venv for the torch.compile test (scripts/install-torch2.sh)
             clang libclang-rt-dev  # libFuzzer and clang's sanitizer runtimes: scripts/fuzz.sh, in the sanitizer stage
             chromium)  # headless browser: tests/cli/test_html_chromium.sh renders the HTML report
fi
if [ $list_only -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
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
# torch 2.x from PyPI for the torch.compile test (not for the main job). In CI it must be there (the
# test fails without it there rather than skip); elsewhere a failed install leaves that test skipping.
if [ $main_only -eq 0 ]; then
  if [ "${CI:-}" = true ]; then
    bash "$(dirname "$0")/install-torch2.sh"
  else
    bash "$(dirname "$0")/install-torch2.sh" || echo "install-deps: torch 2.x not installed; tests/cli/test_torch_compile.sh will skip"
  fi
fi
