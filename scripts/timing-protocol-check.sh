#!/usr/bin/env bash
# timing-protocol-check.sh KBENCH OUTDIR [SPEC] - gpu-check's first step: one small workload timed
# under each combination of the protocol's two switches, eager vs --graph and cold vs --hot, on our
# kernels and cuDNN, so the first GPU visit tells whether the protocol itself behaves:
#   - a graph replay should be no slower than eager launches (it removes launch gaps, nothing else);
#   - a hot sample should be no slower than a cold one (it skips the L2 flush's evictions);
#   - with the stream held while the host enqueues (docs/gpu-runtime.md), eager and graph medians of
#     a small problem should be close: a large gap is host time leaking into device time.
# Writes OUTDIR/protocol-{cold,cold-graph,hot,hot-graph}.json and prints their medians side by side
# (scripts/timing-protocol-summary.py, also in OUTDIR/protocol.md). About a minute on a GPU.
#
# Environment: KBENCH_PROTOCOL_BACKENDS (default cuda,cudnn), KBENCH_SEED (default 1),
# KBENCH_PROTOCOL_BUDGET (--time-budget per result, default 5).
set -u -o pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kbench="${1:?usage: timing-protocol-check.sh KBENCH OUTDIR [SPEC]}"
outdir="${2:?usage: timing-protocol-check.sh KBENCH OUTDIR [SPEC]}"
spec="${3:-$repo_root/workloads/examples/conv2d.yaml}"
backends="${KBENCH_PROTOCOL_BACKENDS:-cuda,cudnn}"
seed="${KBENCH_SEED:-1}"
budget="${KBENCH_PROTOCOL_BUDGET:-5}"
mkdir -p "$outdir" || exit 2

status=0
parts=()
for config in cold cold-graph hot hot-graph; do
  flags=()
  [[ "$config" == hot* ]] && flags+=(--hot)
  [[ "$config" == *graph ]] && flags+=(--graph)
  echo "== $config: kbench run $(basename "$spec") --backends $backends ${flags[*]}"
  # Exit 1 (a result failed) still leaves a document to compare; anything else is a failure here.
  "$kbench" run "$spec" --backends "$backends" --math fp32,tf32 --seed "$seed" --iterations 100 \
    --time-budget "$budget" "${flags[@]}" --format json --output "$outdir/protocol-$config.json"
  rc=$?
  (( rc == 0 || rc == 1 )) || status=1
  (( rc == 0 )) || echo "   exit $rc"
  [[ -f "$outdir/protocol-$config.json" ]] && parts+=("$outdir/protocol-$config.json")
done
(( ${#parts[@]} )) || { echo "timing-protocol-check: no result document was written" >&2; exit 1; }
python3 "$repo_root/scripts/timing-protocol-summary.py" "${parts[@]}" --output "$outdir/protocol.md" || status=1
cat "$outdir/protocol.md"
exit "$status"
