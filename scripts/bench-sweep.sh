#!/usr/bin/env bash
# How loading, expanding and writing N workloads scale (a benchmark, not a test: CI does not run it).
#
#   scripts/bench-sweep.sh [KBENCH] [N...]      (default: build/default/bin or build/cpu kbench; N = 200 400 800 10000)
#
# For each N: one spec with a one-axis sweep of N points (batch 1..N), timed through
#   load:   `kbench plan SPEC --backends reference --format json` (read, expand, validate, plan);
#   run:    `kbench run SPEC --backends reference --time-budget 1e-9` (every result skipped: the run
#           itself costs nothing), its JSON once to stdout and once with --output FILE;
#   write:  what --output adds to the run (both render the final document once), against one whole
#           read-and-write of that document (`kbench merge FILE --output COPY`).
# Linear loading shows as a constant time per point; linear writing as --output adding about one
# write (or less) to the run, not a multiple of it that grows with N.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
KBENCH="${1:-}"
[ $# -gt 0 ] && shift
if [ -z "$KBENCH" ]; then
  for candidate in "$root/build/default/kbench" "$root/build/default/apps/kbench/kbench" "$root/build/cpu/apps/kbench/kbench"; do
    [ -x "$candidate" ] && { KBENCH="$candidate"; break; }
  done
fi
[ -x "$KBENCH" ] || { echo "usage: $0 KBENCH [N...]" >&2; exit 2; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200 400 800 10000)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

seconds() {  # seconds COMMAND...: wall time of COMMAND, its output discarded
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || true
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

printf '%8s %8s %11s %11s %13s %14s %12s %8s\n' N "load s" "load us/pt" "run>stdout" "run --output" "--output adds" "merge r+w s" "doc MiB"
for n in "${sizes[@]}"; do
  spec="$work/sweep-$n.yaml"
  {
    echo "name: bench-sweep"
    echo "op: conv"
    echo "input: [1, 64, 56, 56]"
    echo "out_channels: 64"
    echo "kernel: 3"
    echo "padding: 1"
    printf 'sweep:\n  batch: ['
    seq -s, 1 "$n" | tr -d '\n'
    echo "]"
  } > "$spec"
  load=$(seconds "$KBENCH" plan "$spec" --backends reference --format json)
  per_point=$(awk -v t="$load" -v n="$n" 'BEGIN { printf "%.0f", t * 1000000 / n }')
  run=(run "$spec" --backends reference --time-budget 1e-9 --iterations 1 --warmups 0 --seed 1 --format json --allow-empty)
  to_stdout=$(seconds "$KBENCH" "${run[@]}")
  to_file=$(seconds "$KBENCH" "${run[@]}" --output "$work/out-$n.json")
  merge_file=$(seconds "$KBENCH" merge "$work/out-$n.json" --output "$work/copy-$n.json")
  adds=$(awk -v a="$to_stdout" -v b="$to_file" 'BEGIN { printf "%.2f", b - a }')
  size=$(stat -c %s "$work/out-$n.json" 2>/dev/null || echo 0)
  printf '%8s %8s %11s %11s %13s %14s %12s %8s\n' "$n" "$load" "$per_point" "$to_stdout" "$to_file" "$adds" "$merge_file" \
    "$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')"
done
