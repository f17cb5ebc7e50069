#!/usr/bin/env bash
# Fuzzes kbench's input readers with libFuzzer (docs/robustness.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET]
#
# SECONDS (default 60) is the time per target; TARGET is fuzz_spec (spec parser alone),
# fuzz_spec_reference (parser + validation + metrics + CPU reference on every accepted spec),
# fuzz_results_json (the results-file reader of diff and report, then their renderings),
# fuzz_cli (argument vectors through the command line front end) or all (default: each in turn).
# Exits non-zero when a target crashes; the input that did it is under BUILD/crashes/TARGET/.
#
# The build directory (KBENCH_FUZZ_BUILD_DIR, default build/fuzz) is configured with clang and, for the
# whole directory, -fsanitize=fuzzer-no-link,address,undefined: kbench::core must carry coverage
# instrumentation or libFuzzer cannot see which inputs reach new code. The fuzzers themselves link
# -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt). Needs clang with libFuzzer (clang 14 on Debian has it).
#
# The corpus lives in BUILD/corpus/TARGET and grows from run to run; each run first seeds it: the spec
# fuzzers with every spec in the tree (workloads/, tests/data/specs/), the hand-written tricky inputs in
# tests/fuzz/corpus/ and every past crash in tests/data/specs/crashes/; fuzz_results_json with
# tests/fuzz/corpus-results/ and fuzz_cli with tests/fuzz/corpus-cli/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
target="${2:-all}"
build="${KBENCH_FUZZ_BUILD_DIR:-build/fuzz}"
all_targets=(fuzz_spec fuzz_spec_reference fuzz_results_json fuzz_cli)
case "$target" in
  all) targets=("${all_targets[@]}") ;;
  fuzz_spec | fuzz_spec_reference | fuzz_results_json | fuzz_cli) targets=("$target") ;;
  *) echo "fuzz.sh: unknown target '$target'; expected ${all_targets[*]} or all" >&2; exit 2 ;;
esac
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "fuzz.sh: SECONDS must be a positive integer" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found; libFuzzer needs clang" >&2; exit 2; }

instrument="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKBENCH_ENABLE_CUDA=OFF \
  -DKBENCH_BUILD_FUZZERS=ON -DCMAKE_CXX_FLAGS="$instrument" >/dev/null
cmake --build "$build" --target "${targets[@]}"

seed_corpus() {  # seed_corpus CORPUS TARGET: copies the target's seeds in, named after their paths
  local corpus="$1" file
  mkdir -p "$corpus"
  while IFS= read -r -d '' file; do
    cp -f "$file" "$corpus/seed_${file//\//_}"
  done < <(case "$2" in
             fuzz_results_json) find tests/fuzz/corpus-results -type f -print0 ;;
             fuzz_cli) find tests/fuzz/corpus-cli -type f -print0 ;;
             *) find workloads tests/data/specs tests/fuzz/corpus \( -name '*.yaml' -o -name '*.yml' \) -type f -print0 ;;
           esac)
}
# Dictionary and largest input per target: results documents run to tens of KiB.
dict_of() { case "$1" in fuzz_results_json) echo results ;; fuzz_cli) echo cli ;; *) echo spec ;; esac; }
max_len_of() { case "$1" in fuzz_results_json) echo 65536 ;; *) echo 4096 ;; esac; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  crashes="$build/crashes/$t"
  seed_corpus "$corpus" "$t"
  mkdir -p "$crashes"
  echo "fuzz.sh: $t for ${seconds}s, corpus $corpus ($(find "$corpus" -type f | wc -l) inputs)"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a spec must never make kbench allocate GiBs.
  if ! "$build/tests/fuzz/$t" "$corpus" -dict="tests/fuzz/$(dict_of "$t").dict" -max_len="$(max_len_of "$t")" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$crashes/"; then
    status=1
    echo "fuzz.sh: $t FOUND A CRASH; inputs under $crashes/ (replay: $build/tests/fuzz/$t FILE)" >&2
  fi
done
exit "$status"
