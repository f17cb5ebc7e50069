# scripts/gpu-check.sh end to end on the CPU with stand-ins (tests/cli/gpu_check_fakes/: kbench, the GPU
# test program, nvidia-smi, ncu, compute-sanitizer) on the test clock, and scripts/record-gpu-run.py
# on what it brings back:
#   - at plausible step times a 470 s visit runs every step, merges, figures and the last nvidia-smi
#     included, within its budget; the wheels' cuDNN, nvrtc and cuBLASLt folders lead the library path;
#   - KBENCH_CHECK_BUNDLE=1: OUTDIR holds summary.txt and gpu-check.tar.gz alone, the profiler's
#     reports left out; record-gpu-run.py files the whole set from it;
#   - a call killed midway (as the device kills one at its limit) leaves both files, current, and
#     record-gpu-run.py files the partial set they hold, merging the seeds' parts itself.
source "$(dirname "$0")/lib.sh"
command -v setsid >/dev/null && command -v pkill >/dev/null || { echo "SKIP: no setsid or pkill"; exit 77; }
source "$SRC/tests/cli/gpu_check_fakes/setup.sh"

visit full 470 KBENCH_CHECK_BUNDLE=1
cat "$WORK/full/summary.txt"
expect_status full ok "${STAGES_1_TO_3[@]}" merge-seeds "${STAGE_4[@]}" gpu-soak merge-variants figures nvidia-smi-after
(( $(elapsed_of full) <= 470 )) || fail "the visit took $(elapsed_of full)s of 470"
grep -q '^all steps ok' "$WORK/full/summary.txt" || fail "a visit with every step ok does not say so"
grep -q "libraries from the Python wheels first: $WORK/py/nvidia/cudnn/lib:$WORK/py/nvidia/cu13/lib" \
  "$WORK/full/summary.txt" || fail "the wheels' cuDNN, nvrtc and cuBLASLt folders are not on the library path"
[[ "$(ls "$WORK/full" | tr '\n' ' ')" == "gpu-check.tar.gz summary.txt " ]] ||
  fail "a bundled visit left $(ls "$WORK/full" | tr '\n' ' ')"
[[ -z "$(ls "$WORK/tmp")" ]] || fail "the scratch folder was left behind"
mkdir -p "$WORK/unpacked"
tar xzf "$WORK/full/gpu-check.tar.gz" -C "$WORK/unpacked" || fail "the bundle is no tarball"
for file in seeds.json variants.json figures.md ncu-050-tf32.csv gpu-tests.log nvidia-smi-after.log; do
  [[ -f "$WORK/unpacked/$file" ]] || fail "the bundle lacks $file"
done
ls "$WORK/unpacked" | grep -q '\.ncu-rep$' && fail "the bundle holds the profiler's reports"
json_check "$WORK/unpacked/variants.json" 'len(doc["results"]) == 8 * 2'
grep -q '^| 076 | tf32 |' "$WORK/unpacked/figures.md" || fail "figures.md lacks the headline"

mkdir -p "$WORK/results-full"
python3 "$repo/scripts/record-gpu-run.py" "$WORK/full" --results-dir "$WORK/results-full" >"$WORK/record-full.txt" 2>&1 ||
  { cat "$WORK/record-full.txt"; fail "record-gpu-run refused a full visit"; }
for document in "" _variants _variants-half _examples _seeds-fp16-nhwc _seeds-bf16-nhwc _seeds-backward \
  _examples-backward _plan _protocol-cold _protocol-cold-graph _protocol-hot _protocol-hot-graph; do
  [[ -f "$WORK/results-full/2026-12-05_h100_1234567$document.json" ]] || fail "the visit's '$document' was not filed"
done
grep -q "Our default kernels against cuDNN" "$WORK/record-full.txt" || fail "record-gpu-run printed no figures"

# Killed while the GPU tests hang (real time: 60 s), after the headline: as the device ends a call.
printf 'gpu-tests 100000\n' >>"$WORK/times"
echo 0 >"$WORK/killed.clock"
(cd "$WORK" && env PATH="$WORK/bin:$PATH" TMPDIR="$WORK/tmp" KBENCH_BUILD_DIR="$repo/build" KBENCH_CHECK_BUNDLE=1 \
  KBENCH_CHECK_CLOCK="$WORK/killed.clock" FAKE_GPU="NVIDIA H100 80GB HBM3" FAKE_TIMES="$WORK/times" \
  FAKE_LIB="$FAKES/fake_lib.sh" FAKE_PIDS="$WORK/pids" \
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$WORK/session" bash "$repo/scripts/gpu-check.sh" "$WORK/killed" \
  >"$WORK/killed.txt" 2>&1) &
waiter=$!
for _ in $(seq 1 300); do
  grep -q '^merge-seeds ' "$WORK/killed/summary.txt" 2>/dev/null && break
  sleep 0.1
done
sleep 0.5
pkill -KILL -s "$(cat "$WORK/session")"  # gpu-check and every process of its session
wait "$waiter" 2>/dev/null
(( $(ls "$WORK/killed" | grep -vc '\.part$') == 2 )) || fail "a killed call left $(ls "$WORK/killed" | tr '\n' ' ')"
grep -q 'cut off here if this is the summary' "$WORK/killed/summary.txt" || fail "the summary does not say it is a cut-off visit's"
expect_status killed ok seeds-050 seeds-076 seeds-077 seeds-084 merge-seeds
grep -q '^gpu-tests ' "$WORK/killed/summary.txt" && fail "the visit was not killed during the GPU tests"
tar tzf "$WORK/killed/gpu-check.tar.gz" >"$WORK/killed.list" || fail "the killed visit's tarball is unreadable"
grep -qx 'seeds-084.json' "$WORK/killed.list" && grep -qx 'seeds.json' "$WORK/killed.list" ||
  fail "the tarball is not current: $(tr '\n' ' ' <"$WORK/killed.list")"
# Without seeds.json (as when a call is killed between the last seed and the merge): record-gpu-run
# merges the parts itself.
mkdir -p "$WORK/parts" "$WORK/results-killed"
tar xzf "$WORK/killed/gpu-check.tar.gz" -C "$WORK/parts" && rm "$WORK/parts/seeds.json"
python3 "$repo/scripts/record-gpu-run.py" "$WORK/parts" --results-dir "$WORK/results-killed" >"$WORK/record-killed.txt" 2>&1 ||
  { cat "$WORK/record-killed.txt"; fail "record-gpu-run refused the parts a killed visit brought back"; }
json_check "$WORK/results-killed/2026-12-05_h100_1234567.json" 'len(doc["workloads"]) == 4 and len(doc["results"]) == 16'
echo "PASS"
