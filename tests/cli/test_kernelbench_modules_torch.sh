# The shipped KernelBench level-1 suite is what KernelBench executes: each module, built back from its call
# structure (tests/data/import/kernelbench_level1/calls.json, by write_modules.py), read by running it in
# torch (`kbench import kernelbench --reader torch`: Model(*get_init_inputs()) applied to get_inputs() on
# meta tensors) and against kbench's torch stub (--reader stub), plans exactly the problem of the shipped spec: shapes, kernel,
# stride, padding, dilation, output_padding, groups, bias, dtype, layout. Skips (77) without torch.
source "$(dirname "$0")/lib.sh"
require_torch
export KBENCH_PYTHON=$PY
data="$SRC/tests/data/import/kernelbench_level1"
python3 "$data/write_modules.py" "$data/calls.json" "$WORK/modules" || fail "write_modules.py"
[ "$(ls "$WORK/modules" | wc -l)" -eq 35 ] || fail "expected 35 modules"

# Each workload's name and problem as `kbench plan` prints it (describe() and the data), one line each, in order.
problems() {
  "$KBENCH" plan "$1" --backends reference --format json >"$WORK/plan.json" 2>"$WORK/plan.err" ||
    { cat "$WORK/plan.err"; fail "kbench plan $1: exit $?"; }
  python3 - "$WORK/plan.json" <<'PY'
import json, sys
seen = []
for plan in json.load(open(sys.argv[1]))["plans"]:
    if (plan["workload"], plan["problem"]) not in seen:
        seen.append((plan["workload"], plan["problem"]))
for workload, problem in seen:
    print(f"{workload}|{problem}")
PY
}
problems "$SRC/workloads/kernelbench/level1" >"$WORK/shipped.txt"
[ "$(wc -l <"$WORK/shipped.txt")" -eq 36 ] || { cat "$WORK/shipped.txt"; fail "expected 36 shipped workloads"; }

for reader in torch stub; do
  "$KBENCH" import kernelbench "$WORK"/modules/*.py --reader "$reader" --output "$WORK/$reader.yaml" \
    2>"$WORK/$reader.err" || { cat "$WORK/$reader.err"; fail "--reader $reader: exit $?"; }
  problems "$WORK/$reader.yaml" >"$WORK/$reader.txt"
  [ "$(wc -l <"$WORK/$reader.txt")" -eq 36 ] || { cat "$WORK/$reader.txt"; fail "--reader $reader: expected 36 workloads"; }
  paste -d'|' "$WORK/shipped.txt" "$WORK/$reader.txt" | awk -F'|' -v reader="$reader" '
    $2 != $4 { printf "%s: the shipped spec plans %s\n  %s: KernelBench'"'"'s module (--reader %s) builds %s\n", $1, $2, $3, reader, $4; bad = 1 }
    END { exit bad }' || fail "the shipped suite differs from the modules as KernelBench runs them (--reader $reader)"
done
grep -q "read by running its Model in torch" "$WORK/torch.err" || { cat "$WORK/torch.err"; fail "no note of the torch reader"; }
echo "ok"
