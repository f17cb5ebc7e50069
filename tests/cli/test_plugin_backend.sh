# The plugin backend end to end on the CPU: the host example plugin beside the reference on every kind of
# convolution it computes, verified in full and timed, its name and version recorded; every pass, dtype and
# layout through a test plugin, each gradient in the buffer the header names; what the example declines
# (fp16, a backward pass, TF32, an unknown variant) unsupported with its reason; a deliberately wrong plugin
# `wrong` and never timed, as is one that writes an input; an error from run() `failed` with the plugin's
# message; a library that is missing (exit 2), built for another ABI version or lacking an entry
# point refused with the reason while the reference's results are kept; and a run without --backends
# leaves the plugin out; the documents validate against the schema. CMake passes the plugins' paths in the
# environment (tests/cli/CMakeLists.txt).
source "$(dirname "$0")/lib.sh"
: "${KBENCH_HOST_EXAMPLE_PLUGIN:?}" "${KBENCH_WRONG_PLUGIN:?}" "${KBENCH_ABI_MISMATCH_PLUGIN:?}"
: "${KBENCH_MISSING_SYMBOL_PLUGIN:?}" "${KBENCH_EVERY_PASS_PLUGIN:?}"
spec="$SRC/tests/data/cli/plugin_small.yaml"
small="$SRC/tests/data/cli/small_conv2d.yaml"
host="$KBENCH_HOST_EXAMPLE_PLUGIN"

"$KBENCH" run "$spec" --backends "reference,plugin:$host,plugin:$host:direct" --iterations 3 --seed 5 --format json \
  --output "$WORK/out.json" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
status=$?
[ $status -eq 0 ] || { cat "$WORK/stderr.txt" "$WORK/stdout.txt"; fail "kbench run with the host example exited $status"; }
python3 - "$WORK/out.json" "$host" <<'PY' || fail "the host example plugin's results are not as expected"
import json, sys
doc, host = json.load(open(sys.argv[1])), sys.argv[2]
def result(workload, backend, variant=""):
    found = [r for r in doc["results"]
             if r["workload"] == workload and r["backend"] == backend and (r.get("variant") or "") == variant]
    assert len(found) == 1, (workload, backend, variant, len(found))
    return found[0]
names = [w["name"] for w in doc["workloads"]]
assert len(names) == 9, names
computed = [n for n in names if not n.endswith(("fp16", "backward-data"))]
for name in computed:
    for variant in (host, host + ":direct"):
        r = result(name, "plugin", variant)
        assert r["status"] == "ok", (name, variant, r["status"], r.get("reason"))
        v = r["verification"]
        assert v["passed"] and v["full"] and v["inputs_unchanged"] and v["mismatches"] == 0 and v["checked"] > 0, v
        assert v["fresh_inputs"]["passed"], (name, v["fresh_inputs"])
        assert len(r["timing"]["samples_s"]) == 3, name
        assert r["implementation"] == "host-direct 1.0.0 direct", r["implementation"]
        p = r["properties"]
        assert p["plugin_name"] == "host-direct" and p["plugin_version"] == "1.0.0", p
        assert p["plugin_path"] == host and p["plugin_memory"] == "host" and p["plugin_variant"] == "direct", p
        assert p["plugin_abi_version"] == "1" and p["workspace_bytes"] == "0", p
    assert result(name, "reference")["status"] == "ok", name
fp16 = result("plugin-conv2d-fp16", "plugin", host)
assert fp16["status"] == "unsupported" and "host-direct: computes fp32 only" in fp16["reason"], fp16
bwd = result("plugin-conv2d-backward-data", "plugin", host)
assert bwd["status"] == "unsupported" and "forward pass only" in bwd["reason"], bwd
assert result("plugin-conv2d-backward-data", "reference")["status"] == "ok"
PY
grep -q "plugin-conv-transpose3d" "$WORK/stdout.txt" || fail "text table on stdout lacks the workloads"

# Every pass, dtype and layout reaches a plugin in the buffers the header names (tests/plugin/every_pass_plugin.cpp).
"$KBENCH" run "$SRC/tests/data/cli/plugin_passes.yaml" --backends "plugin:$KBENCH_EVERY_PASS_PLUGIN" --iterations 2 \
  --format json --output "$WORK/passes.json" >/dev/null 2>"$WORK/passes.err" ||
  { status=$?; cat "$WORK/passes.err"; fail "every pass: exit $status"; }
json_check "$WORK/passes.json" '
  len(doc["results"]) == 7
  and {r["pass"] for r in doc["results"]} == {"forward", "backward_data", "backward_weights"}
  and all(r["status"] == "ok" and r["verification"]["passed"] and r["properties"]["workspace_bytes"] == "64"
          for r in doc["results"] if r["workload"] != "plugin-pass-transposed")
  and [r for r in doc["results"] if r["workload"] == "plugin-pass-transposed"][0]["status"] == "unsupported"'

# A plugin that reports an error from run() is failed, with its message; one that writes an input is wrong.
"$KBENCH" run "$small" --backends "plugin:$KBENCH_EVERY_PASS_PLUGIN:fails-in-run,plugin:$KBENCH_EVERY_PASS_PLUGIN:writes-input" \
  --iterations 2 --format json --output "$WORK/misbehaving.json" >/dev/null 2>&1
status=$?
[ $status -eq 1 ] || fail "failed and wrong plugin results must make the run exit 1, got $status"
json_check "$WORK/misbehaving.json" '
  doc["results"][0]["status"] == "failed"
  and "plugin every-pass: kbench_plugin_run failed: deliberate failure of variant fails-in-run" in doc["results"][0]["reason"]
  and doc["results"][1]["status"] == "wrong" and "modified its inputs" in doc["results"][1]["reason"]
  and doc["results"][1]["timing"] is None'

# What the example declines, with its reason: TF32, and a variant it does not have.
# Nothing of it is measured: exit 4 (docs/exit-codes.md), the declines still reported.
"$KBENCH" run "$small" --backends "plugin:$host,plugin:$host:winograd" --math tf32 --iterations 2 --format json \
  --output "$WORK/declined.json" >/dev/null 2>&1
status=$?
[ $status -eq 4 ] || fail "declined problems: exit $status, expected 4 (unsupported is no failure, but nothing was measured)"
json_check "$WORK/declined.json" 'doc["results"][0]["status"] == "unsupported" and "no TF32" in doc["results"][0]["reason"]'
json_check "$WORK/declined.json" '
  doc["results"][1]["status"] == "unsupported" and "no variant '"'"'winograd'"'"'" in doc["results"][1]["reason"]
  and "known: direct" in doc["results"][1]["reason"]'

# A plugin that computes the wrong values: wrong, with the mismatch, and no time reported; exit 1.
"$KBENCH" run "$small" --backends "reference,plugin:$KBENCH_WRONG_PLUGIN" --iterations 2 --format json \
  --output "$WORK/wrong.json" >/dev/null 2>&1
status=$?
[ $status -eq 1 ] || fail "a wrong plugin must make the run exit 1, got $status"
json_check "$WORK/wrong.json" 'doc["results"][0]["status"] == "ok"'
json_check "$WORK/wrong.json" '
  [r for r in doc["results"] if r["backend"] == "plugin"][0]["status"] == "wrong"
  and "checked elements" in [r for r in doc["results"] if r["backend"] == "plugin"][0]["reason"]
  and not [r for r in doc["results"] if r["backend"] == "plugin"][0]["verification"]["passed"]
  and [r for r in doc["results"] if r["backend"] == "plugin"][0]["timing"] is None
  and [r for r in doc["results"] if r["backend"] == "plugin"][0]["implementation"] == "off-by-one 0.1.0"'

# Libraries kbench must refuse. One that is not there: the command line's error (exit 2), naming it. One
# built for another ABI version, or lacking an entry point: unavailable, naming the cause; the reference's
# result is kept and the run exits 0.
missing="$WORK/no such dir/libnothing.so"
"$KBENCH" run "$small" --backends "reference,plugin:$missing" >"$WORK/missing.txt" 2>&1
[ $? -eq 2 ] || { cat "$WORK/missing.txt"; fail "a missing plugin library must exit 2"; }
grep -q -- "--backends: plugin:$missing: no such file '$missing'" "$WORK/missing.txt" ||
  { cat "$WORK/missing.txt"; fail "the missing library is not named"; }
"$KBENCH" run "$small" --backends "reference,plugin:$KBENCH_ABI_MISMATCH_PLUGIN,plugin:$KBENCH_MISSING_SYMBOL_PLUGIN" \
  --iterations 2 --format json --output "$WORK/broken.json" >/dev/null 2>"$WORK/broken.err" ||
  { status=$?; cat "$WORK/broken.err"; fail "refused plugins: exit $status (they are results, not failures)"; }
python3 - "$WORK/broken.json" "$KBENCH_ABI_MISMATCH_PLUGIN" "$KBENCH_MISSING_SYMBOL_PLUGIN" <<'PY' ||
import json, sys
doc = json.load(open(sys.argv[1]))
mismatch, without_run = sys.argv[2:]
results = {(r["backend"], r.get("variant") or ""): r for r in doc["results"]}
assert results[("reference", "")]["status"] == "ok"
def refused(path, *words):
    r = results[("plugin", path)]
    assert r["status"] == "unavailable", r
    for word in words: assert word in r["reason"], (word, r["reason"])
    assert r["timing"] is None
refused(mismatch, mismatch, "ABI version 2", "speaks version 1")
refused(without_run, without_run, "does not define kbench_plugin_run")
PY
  fail "the refused plugins' reasons are not as expected"

# Plugin results are kbench.results/1 documents like any other (where python3 has jsonschema).
if python3 -c "import jsonschema" 2>/dev/null; then
  for doc in out passes misbehaving wrong broken; do
    python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
      "$SRC/docs/kbench.results-1.schema.json" "$WORK/$doc.json" || fail "$doc.json does not validate against the schema"
  done
fi

# No path at all is a reason too; a run without --backends leaves the plugin out; kbench list names it.
"$KBENCH" run "$small" --backends reference,plugin --iterations 2 --format json --output "$WORK/nopath.json" \
  >/dev/null 2>&1 || fail "plugin without a path: exit $?"
json_check "$WORK/nopath.json" '"plugin:PATH.so" in doc["results"][1]["reason"] and doc["results"][1]["status"] == "unsupported"'
"$KBENCH" run "$small" --iterations 2 --format json --output "$WORK/default.json" >/dev/null 2>&1 ||
  fail "run without --backends: exit $?"
json_check "$WORK/default.json" 'all(r["backend"] != "plugin" for r in doc["results"])'
"$KBENCH" list "$small" >"$WORK/list.txt" 2>/dev/null || fail "kbench list: exit $?"
grep -q "^  plugin  *available: your own convolution" "$WORK/list.txt" || fail "kbench list does not name the plugin backend"
echo "PASS"
