#!/usr/bin/env bash
# Fuzzes the workload-spec parser with libFuzzer (docs/robustness.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET]
#
# SECONDS (default 60) is the time per target; TARGET is fuzz_spec (parser alone), fuzz_spec_reference
# (parser + validation + metrics + CPU reference on every accepted spec) or all (default: both in turn).
# Exits non-zero when a target crashes; the input that did it is under BUILD/crashes/TARGET/.
#
# The build directory (KBENCH_FUZZ_BUILD_DIR, default build/fuzz) is configured with clang and, for the
# whole directory, -fsanitize=fuzzer-no-link,address,undefined: kbench::core must carry coverage
# instrumentation or libFuzzer cannot see which inputs reach new code. The fuzzers themselves link
# -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt). Needs clang with libFuzzer (clang 14 on Debian has it).
#
# The corpus lives in BUILD/corpus/TARGET and grows from run to run; each run first seeds it with every
# spec in the tree (workloads/, tests/data/specs/), the hand-written tricky inputs in tests/fuzz/corpus/
# and every past crash in tests/data/specs/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
target="${2:-all}"
build="${KBENCH_FUZZ_BUILD_DIR:-build/fuzz}"
case "$target" in
  all) targets=(fuzz_spec fuzz_spec_reference) ;;
  fuzz_spec | fuzz_spec_reference) targets=("$target") ;;
  *) echo "fuzz.sh: unknown target '$target'; expected fuzz_spec, fuzz_spec_reference or all" >&2; exit 2 ;;
esac
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "fuzz.sh: SECONDS must be a positive integer" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found; libFuzzer needs clang" >&2; exit 2; }

instrument="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKBENCH_ENABLE_CUDA=OFF \
  -DKBENCH_BUILD_FUZZERS=ON -DCMAKE_CXX_FLAGS="$instrument" >/dev/null
cmake --build "$build" --target "${targets[@]}"

seed_corpus() {  # copies every seed into $1, named after its path so equal file names do not collide
  local corpus="$1" file
  mkdir -p "$corpus"
  while IFS= read -r -d '' file; do
    cp -f "$file" "$corpus/seed_${file//\//_}"
  done < <(find workloads tests/data/specs tests/fuzz/corpus \( -name '*.yaml' -o -name '*.yml' \) -type f -print0)
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  crashes="$build/crashes/$t"
  seed_corpus "$corpus"
  mkdir -p "$crashes"
  echo "fuzz.sh: $t for ${seconds}s, corpus $corpus ($(find "$corpus" -type f | wc -l) inputs)"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a spec must never make kbench allocate GiBs.
  if ! "$build/tests/fuzz/$t" "$corpus" -dict=tests/fuzz/spec.dict -max_len=4096 -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$crashes/"; then
    status=1
    echo "fuzz.sh: $t FOUND A CRASH; inputs under $crashes/ (replay: $build/tests/fuzz/$t FILE)" >&2
  fi
done
exit "$status"
