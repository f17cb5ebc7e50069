# --shard K/N and `kbench merge`: three shards of one run, merged, list the results one unsharded run
# lists, in its order and with its statuses; the merged document reports like any other; shards of
# different settings are refused (exit 2, naming the field). --axis sweeps workloads from the command
# line as a spec's sweep: does.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/specs"
for n in 1 2 3; do
  cat >"$WORK/specs/small$n.yaml" <<YAML
name: small-$n
op: conv
dtype: fp32
input: [1, $((n + 1)), 10, 9]
out_channels: $((n + 2))
kernel: 3
padding: 1
YAML
done
common=(run "$WORK/specs" --backends reference --math fp32,tf32 --seed 11 --iterations 2 --time-budget 30 --format json)
for k in 1 2 3; do
  "$KBENCH" "${common[@]}" --shard "$k/3" --output "$WORK/shard$k.json" >/dev/null 2>"$WORK/err$k.txt" ||
    { cat "$WORK/err$k.txt"; fail "shard $k/3 exited $?"; }
done
"$KBENCH" "${common[@]}" --output "$WORK/whole.json" >/dev/null 2>&1 || fail "the unsharded run failed"
"$KBENCH" merge "$WORK/shard1.json" "$WORK/shard2.json" "$WORK/shard3.json" --output "$WORK/merged.json" \
  2>"$WORK/merge.txt" || { cat "$WORK/merge.txt"; fail "merge exited $?"; }
python3 - "$WORK" <<'PY' || fail "the merged shards differ from the unsharded run"
import json, sys
w = sys.argv[1]
key = lambda r: (r["workload"], r["backend"], r["variant"], r["math_requested"], r["status"])
shards = [json.load(open(f"{w}/shard{k}.json")) for k in (1, 2, 3)]
merged, whole = json.load(open(f"{w}/merged.json")), json.load(open(f"{w}/whole.json"))
sizes = [len(s["results"]) for s in shards]
assert sum(sizes) == len(whole["results"]) == 6 and max(sizes) - min(sizes) <= 1, sizes
assert [key(r) for r in merged["results"]] == [key(r) for r in whole["results"]], "results or their order differ"
assert all(r["status"] == "ok" for r in merged["results"]), [r["reason"] for r in merged["results"]]
assert [x["name"] for x in merged["workloads"]] == [x["name"] for x in whole["workloads"]]
assert any("--shard 2/3" in n for n in merged["notes"]), merged["notes"]
PY
"$KBENCH" report "$WORK/merged.json" --format markdown >/dev/null || fail "the merged document does not report"
# Shards of another seed are not parts of the same run.
"$KBENCH" run "$WORK/specs" --backends reference --seed 12 --iterations 2 --time-budget 30 --format json --shard 1/3 \
  --output "$WORK/other.json" >/dev/null 2>&1 || fail "the other run failed"
"$KBENCH" merge "$WORK/shard1.json" "$WORK/other.json" >/dev/null 2>"$WORK/mixed.txt"
[[ $? == 2 ]] || fail "mixed settings must be refused with exit 2"
grep -q "seed" "$WORK/mixed.txt" || { cat "$WORK/mixed.txt"; fail "the refusal must name the field"; }
grep -q "other.json" "$WORK/mixed.txt" || fail "the refusal must name the file"
# A malformed shard is refused before anything runs.
"$KBENCH" run "$WORK/specs" --backends reference --shard 4/3 >/dev/null 2>"$WORK/bad.txt"
[[ $? == 2 ]] && grep -q -- "--shard" "$WORK/bad.txt" || fail "--shard 4/3 must be refused naming the flag"
# --axis: every workload at every value, named as sweep points.
"$KBENCH" list "$WORK/specs/small1.yaml" --axis batch=1,4 >"$WORK/list.txt" || fail "list --axis exited $?"
grep -q "small-1.batch-1" "$WORK/list.txt" && grep -q "small-1.batch-4" "$WORK/list.txt" || { cat "$WORK/list.txt"; fail "--axis points missing"; }
"$KBENCH" list "$WORK/specs/small1.yaml" --axis bogus=1 >/dev/null 2>"$WORK/axis.txt"
[[ $? == 2 ]] && grep -q -- "--axis" "$WORK/axis.txt" || fail "an unknown --axis key must be refused naming the flag"
echo "PASS"
