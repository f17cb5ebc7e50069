# The CUDA example plugin on a GPU: beside the reference on a small problem, on kbench's device buffers
# and stream, verified, timed with CUDA events (plain and --graph), its name recorded. Skips (77) in a
# build without CUDA (no example built) or where no device is usable (the plugin then says so).
source "$(dirname "$0")/lib.sh"
plugin="${KBENCH_CUDA_EXAMPLE_PLUGIN:-}"
if [ -z "$plugin" ]; then
  echo "SKIP: this build has no CUDA, so no CUDA example plugin"
  exit 77
fi
small="$SRC/tests/data/cli/small_conv2d.yaml"
for graph in "" "--graph"; do
  "$KBENCH" run "$small" --backends "reference,plugin:$plugin" --iterations 5 $graph --format json \
    --output "$WORK/out.json" >/dev/null 2>"$WORK/stderr.txt" || { cat "$WORK/stderr.txt"; fail "exit $? ($graph)"; }
  if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][1]; sys.exit(0 if r["status"]=="unsupported" and "no device is usable" in r["reason"] else 1)' "$WORK/out.json"; then
    echo "SKIP: no usable CUDA device"
    exit 77
  fi
  json_check "$WORK/out.json" '
    doc["results"][1]["status"] == "ok" and doc["results"][1]["verification"]["passed"]
    and len(doc["results"][1]["timing"]["samples_s"]) == 5
    and doc["results"][1]["implementation"] == "cuda-direct 1.0.0 direct"
    and doc["results"][1]["properties"]["plugin_memory"] == "cuda_device"'
done
echo "PASS"
