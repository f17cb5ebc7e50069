# What `kbench plan` says our CUDA kernels would run, for every variant of the four headline problems and every
# example in both math modes, without a GPU (planned for --target h100-sxm): kept identical to
# tests/data/golden/plan_cuda_all.json. The kernel-family code may be reorganised; what it plans
# (names, envelopes, facts, reasons) must not change unless a change means it, and then the golden file
# is rewritten in the same commit: KBENCH_UPDATE_GOLDEN=1 rewrites it. The seeds are named one by one,
# so a workload added to their folder does not change the document. The device's `source` line (which
# holds the CUDA runtime's own words for why there is no device) is left out of the comparison.
source "$(dirname "$0")/lib.sh"
golden="$SRC/tests/data/golden/plan_cuda_all.json"
# Into a file first: grep -q stops reading at its match, and the listing of every workload is long
# enough that kbench then dies of SIGPIPE, which pipefail would take for "no cuda backend".
(cd "$SRC" && "$KBENCH" list) >"$WORK/list.txt" 2>/dev/null || fail "kbench list exited $?"
if ! grep -Eq '^ +cuda ' "$WORK/list.txt"; then
  echo "this build has no cuda backend (no CUDA): nothing to compare"
  echo "PASS"
  exit 0
fi
seeds=("$SRC"/workloads/kernelbench/level1/{050,076,077,084}_*.yaml)
"$KBENCH" plan "${seeds[@]}" "$SRC/workloads/examples" --backends cuda:all,reference --math fp32,tf32 \
  --target h100-sxm --format json --verbose >"$WORK/plan.json" 2>"$WORK/err.txt" || { cat "$WORK/err.txt"; fail "plan exited $?"; }
if [[ "${KBENCH_UPDATE_GOLDEN:-0}" == 1 ]]; then
  python3 - "$WORK/plan.json" "$golden" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["device"]["source"] = "(not compared)"
json.dump(doc, open(sys.argv[2], "w"), indent=2, sort_keys=False)
open(sys.argv[2], "a").write("\n")
PY
  echo "rewrote $golden"
fi
python3 - "$WORK/plan.json" "$golden" <<'PY' || fail "the plan differs from $golden (KBENCH_UPDATE_GOLDEN=1 rewrites it, if the change is meant)"
import json, sys
got, want = (json.load(open(p)) for p in sys.argv[1:3])
got["device"]["source"] = want["device"]["source"]
if got == want:
    sys.exit(0)
def walk(a, b, path):
    if type(a) != type(b):
        print(f"{path}: {a!r} != {b!r}"); return True
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                print(f"{path}.{k}: only in {'golden' if k in b else 'this plan'}"); return True
            if walk(a[k], b[k], f"{path}.{k}"): return True
    elif isinstance(a, list):
        if len(a) != len(b):
            print(f"{path}: {len(a)} entries, golden {len(b)}"); return True
        for i, (x, y) in enumerate(zip(a, b)):
            if walk(x, y, f"{path}[{i}]"): return True
    elif a != b:
        print(f"{path}: {a!r}, golden {b!r}"); return True
    return False
walk(got, want, "plan")
sys.exit(1)
PY
echo "PASS"
