# Host memory said before it runs out: with the available figure forced low by the test-only
# KBENCH_TEST_HOST_MEMORY_AVAILABLE, the workload whose host buffers exceed it is skipped with the figures
# (what it needs, part by part, and what is available, from where), the one that fits runs and verifies,
# and the document keeps the run's peak host memory (host_memory.peak_rss_bytes). A figure that is not
# bytes is refused by name (exit 2).
source "$(dirname "$0")/lib.sh"
cat >"$WORK/two.yaml" <<'YAML'
- name: fits
  op: conv
  input: [2, 4, 17, 19]
  out_channels: 6
  kernel: [3, 2]
  stride: [2, 1]
  padding: 1
  groups: 2
  bias: true
- name: too-big
  op: conv
  input: [128, 4, 68, 76]
  out_channels: 6
  kernel: [3, 2]
  stride: [2, 1]
  padding: 1
  groups: 2
  bias: true
YAML
KBENCH_TEST_HOST_MEMORY_AVAILABLE=16000000 "$KBENCH" run "$WORK/two.yaml" --backends reference --format json \
  --output "$WORK/run.json" 2>"$WORK/run.err" || { cat "$WORK/run.err"; fail "run: exit $?"; }
json_check "$WORK/run.json" '[r["status"] for r in doc["results"]] == ["ok", "skipped"]'
# 10.6 MB of fp32 inputs and 24.1 MB of output (fp64 and fp32) for the reference, over the 16.0 MB forced.
json_check "$WORK/run.json" 'doc["results"][1]["reason"] == "needs 34.7 MB of host memory (10.6 MB for the inputs, 24.1 MB for the output as fp64 and fp32), 16.0 MB available (KBENCH_TEST_HOST_MEMORY_AVAILABLE)"'
json_check "$WORK/run.json" 'doc["results"][0]["verification"]["full"] and doc["results"][0]["timing"] is not None'
json_check "$WORK/run.json" 'doc["host_memory"]["peak_rss_bytes"] > 1000000'
# The same run with the machine's own figure: both run.
"$KBENCH" run "$WORK/two.yaml" --backends reference --format json --output "$WORK/free.json" 2>/dev/null ||
  fail "run without the test figure: exit $?"
json_check "$WORK/free.json" '[r["status"] for r in doc["results"]] == ["ok", "ok"]'
# Not bytes: refused before anything runs (exit 2), naming the variable.
KBENCH_TEST_HOST_MEMORY_AVAILABLE=16MB "$KBENCH" run "$WORK/two.yaml" --backends reference >/dev/null 2>"$WORK/bad.err"
[ $? -eq 2 ] && grep -q "KBENCH_TEST_HOST_MEMORY_AVAILABLE=16MB: expected a whole number of bytes" "$WORK/bad.err" ||
  { cat "$WORK/bad.err"; fail "a test figure that is not bytes must be exit 2 naming it"; }
echo "ok"
