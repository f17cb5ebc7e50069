# The embedded interpreter's environment (docs/torch-backend.md, "Which Python"): the probe's stdout
# and stderr are read together, bounded and with a timeout, so a Python that writes a lot to stderr
# (PYTHONVERBOSE=2) cannot deadlock kbench; a Python that cannot start, whether its probe fails
# (PYTHONHOME=/nonexistent) or it passes the probe and only the embedded start fails (its standard
# library not where it says), leaves torch and module `unavailable` with a reason that says what
# failed, and the other backends' results whole; import, which runs files in a child Python, refuses it. Needs /usr/bin/python3; the embedded start needs
# its shared libpython (skipped, 77, without them).
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: no $PY"; exit 77; }
# The embedded interpreter is never finalised (lib.sh, require_torch): under the sanitizers its heap is not
# kbench's leak, and LeakSanitizer's scan of it at exit takes minutes.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
SPEC="$SRC/tests/data/cli/small_conv2d.yaml"
RUN=(run "$SPEC" --iterations 2 --warmups 0 --seed 5 --format json --python "$PY")
echo 'import torch' > "$WORK/model.py"

# A probe that writes a lot to stderr: answers, torch as available as without it.
PYTHONVERBOSE=2 timeout 120 "$KBENCH" list "$SPEC" --python "$PY" > "$WORK/list.txt" 2> "$WORK/err"
status=$?
[ $status -ne 124 ] || fail "PYTHONVERBOSE=2: kbench list hung on the interpreter probe"
[ $status -eq 0 ] || { tail -5 "$WORK/err"; fail "PYTHONVERBOSE=2: kbench list exit $status"; }
if "$PY" -c "import torch" > /dev/null 2>&1; then
  grep -Eq '^ +torch +available' "$WORK/list.txt" || { cat "$WORK/list.txt"; fail "PYTHONVERBOSE=2: torch is not available"; }
else
  grep -Eq 'no torch installed' "$WORK/list.txt" || { cat "$WORK/list.txt"; fail "PYTHONVERBOSE=2: the probe's answer is lost"; }
fi

# A Python whose runtime cannot start (its probe fails): the run goes on, torch and module unavailable,
# saying why: Python's fatal error and the exception behind it, and the PYTHONHOME that caused it.
PYTHONHOME=/nonexistent timeout 120 "$KBENCH" "${RUN[@]}" --backends reference,torch,module:"$WORK/model.py" \
  --output "$WORK/home.json" > /dev/null 2> "$WORK/err"
status=$?
[ $status -eq 0 ] || { cat "$WORK/err"; fail "PYTHONHOME=/nonexistent: exit $status, expected 0"; }
json_check "$WORK/home.json" '[r["status"] for r in doc["results"]] == ["ok", "unavailable", "unavailable"]'
json_check "$WORK/home.json" 'all("Fatal Python error" in r["reason"] and "encodings" in r["reason"] and "PYTHONHOME is /nonexistent" in r["reason"] and "<no Python frame>" not in r["reason"] for r in doc["results"][1:])'

# A Python that passes the probe but whose embedded start fails: its report puts the standard library
# where there is none. The start is tried in a child first, so Python's abort takes only the child.
libpython=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR") + "/" + sysconfig.get_config_var("LDLIBRARY"))')
if [ -e "$libpython" ]; then
  "$PY" - "$WORK/lying-python" "$PY" <<'PY'
import json, sys, sysconfig
path, real = sys.argv[1], sys.argv[2]
report = {
    "executable": real, "version": "%d.%d.%d" % sys.version_info[:3], "major": sys.version_info[0],
    "minor": sys.version_info[1], "libdir": sysconfig.get_config_var("LIBDIR"),
    "ldlibrary": sysconfig.get_config_var("LDLIBRARY"), "instsoname": sysconfig.get_config_var("INSTSONAME") or "",
    "shared": True, "base_prefix": "/nonexistent/kbench-test", "base_exec_prefix": "/nonexistent/kbench-test",
    "path": ["/nonexistent/kbench-test/lib"], "torch": "2.1.0",
}
with open(path, "w") as f:
    f.write("#!/bin/sh\ncat <<'EOF'\n" + json.dumps(report) + "\nEOF\n")
PY
  chmod +x "$WORK/lying-python"
  timeout 120 "$KBENCH" run "$SPEC" --iterations 2 --warmups 0 --seed 5 --format json --python "$WORK/lying-python" \
    --backends reference,torch,module:"$WORK/model.py" --output "$WORK/lying.json" > /dev/null 2> "$WORK/err"
  status=$?
  [ $status -eq 0 ] || { tail -5 "$WORK/err"; fail "a Python whose embedded start fails: exit $status, expected 0"; }
  json_check "$WORK/lying.json" '[r["status"] for r in doc["results"]] == ["ok", "unavailable", "unavailable"]'
  json_check "$WORK/lying.json" 'all("cannot start embedded in kbench" in r["reason"] and "Fatal Python error" in r["reason"] for r in doc["results"][1:])'
  # import runs the file in that Python as a child process (no embedded start): one that answers with
  # something other than the reader's document is exit 2 naming the file, never a spec.
  timeout 120 "$KBENCH" import kernelbench "$SRC/tests/data/import/50_conv_standard_2D__alexnet_first_layer.py" \
    --python "$WORK/lying-python" > "$WORK/spec.yaml" 2> "$WORK/err"
  status=$?
  [ $status -eq 2 ] || { cat "$WORK/err"; fail "import with a Python that is not one: exit $status, expected 2"; }
  grep -q "alexnet_first_layer.py" "$WORK/err" || { cat "$WORK/err"; fail "import: the error does not name the file"; }
  [ ! -s "$WORK/spec.yaml" ] || fail "import with a Python that is not one wrote a spec"
else
  echo "note: no shared libpython at $libpython; the embedded start is not tried"
fi
echo "ok"
