#!/usr/bin/env bash
# Soak: the randomised CPU tests (index arithmetic, the kernels under emulation, spec properties) run
# again and again, each time with KBENCH_TEST_SEED set to the next seed, so they draw shapes no
# single run draws (tests/common/test_seed.hpp). Where ctest runs one fixed set of shapes per test,
# a soak of an hour runs about a hundred; the emulation takes its eight modes in turn (tests/emu/main.cpp):
# the thread schedule is seed mod 4 (ascending, descending, shuffled, warp-ahead), the cp.async landing
# (seed / 4) mod 2 (at-wait, at-issue), so eight consecutive seeds cover every combination. Every failing
# run's output is kept, named by its seed; rerun one with
# `KBENCH_TEST_SEED=<seed> <binary> [--emu-schedule=<order> --emu-copies=<landing>] -tc="<test case>"`.
#
#   bash scripts/soak-tests.sh [--build DIR] [--from N] [--seeds COUNT] [--minutes M] [--log DIR]
#
# --build   a configured build folder whose test binaries to run (default build/cpu, built here
#           with the `cpu` preset when it has none); --from first seed (1); --seeds how many (100);
# --minutes stop starting new seeds after this long (no limit); --log where failures go
#           (<build>/soak). Exit status 1 when any seed failed, 2 on bad arguments.
set -euo pipefail
cd "$(dirname "$0")/.."

build="build/cpu" from=1 count=100 minutes=0 log=""
usage() { sed -n '9,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "$1"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="${2:?}"; shift 2 ;;
    --from) from="${2:?}"; shift 2 ;;
    --seeds) count="${2:?}"; shift 2 ;;
    --minutes) minutes="${2:?}"; shift 2 ;;
    --log) log="${2:?}"; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "soak-tests.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
for number in "$from" "$count" "$minutes"; do
  [[ "$number" =~ ^[0-9]+$ ]] || { echo "soak-tests.sh: '$number' is not a whole number" >&2; exit 2; }
done
log="${log:-$build/soak}"

binaries=()
if [ "$build" = "build/cpu" ] && [ ! -x build/cpu/tests/kbench_unit_tests ]; then bash scripts/build.sh cpu; fi
for name in kbench_unit_tests kbench_emu_tests; do
  if [ -x "$build/tests/$name" ]; then binaries+=("$build/tests/$name"); fi
done
[ ${#binaries[@]} -gt 0 ] || { echo "soak-tests.sh: no test binaries under $build/tests (build it first)" >&2; exit 2; }
mkdir -p "$log"

schedules=(ascending descending shuffled warp-ahead)
landings=(at-wait at-issue)
start=$SECONDS failed=0 ran=0
for ((seed = from; seed < from + count; ++seed)); do
  if [ "$minutes" -gt 0 ] && [ $((SECONDS - start)) -ge $((minutes * 60)) ]; then break; fi
  for binary in "${binaries[@]}"; do
    out="$log/seed-$seed-$(basename "$binary").log"
    # The emulation runs each seed in the next of its eight modes (tests/emu/main.cpp).
    options=()
    if [[ "$(basename "$binary")" == kbench_emu_tests ]]; then
      options=("--emu-schedule=${schedules[seed % 4]}" "--emu-copies=${landings[seed / 4 % 2]}")
    fi
    if KBENCH_TEST_SEED="$seed" "$binary" "${options[@]}" >"$out" 2>&1; then
      rm -f "$out"
    else
      failed=$((failed + 1))
      echo "seed $seed: $(basename "$binary") ${options[*]} FAILED ($(grep -c 'ERROR' "$out") errors), output in $out"
    fi
  done
  ran=$((ran + 1))
done
echo "soak: seeds $from..$((from + ran - 1)) ($ran), $((SECONDS - start)) s, $failed failing runs"
[ "$failed" -eq 0 ]
