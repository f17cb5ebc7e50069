# scripts/gpu-check.sh before it spends the visit, with stand-ins (tests/cli/gpu_check_fakes/):
#   - `kbench info` lists no device 0: every step after it is NOT RUN (no GPU), the summary says why,
#     the exit status is non-zero and no results document is written (kbench would exit 0 with every
#     result `unavailable`);
#   - the bundle's kbench does not load: the loader's error is kept in OUTDIR (kbench-load.log, and
#     in the bundle), the build on the device runs from the carried .deps and the visit goes on with
#     its binaries; without .deps the error is kept all the same.
source "$(dirname "$0")/lib.sh"
source "$SRC/tests/cli/gpu_check_fakes/setup.sh"

visit nogpu 470 FAKE_GPU=""
cat "$WORK/nogpu/summary.txt"
expect_status nogpu ok nvidia-smi-before info nvidia-smi-after
expect_status nogpu 'NOT RUN \(no GPU\)' plan seeds-050 seeds-084 merge-seeds gpu-tests seeds-fp16-nhwc memcheck \
  calibrate variants-076-tf32 variants-half profile gpu-soak merge-variants figures
grep -q 'STOPPED: kbench info lists no device 0 (no CUDA device found (fake: cudaErrorNoDevice))' "$WORK/nogpu/summary.txt" ||
  fail "the summary does not say why the visit stopped"
ls "$WORK/nogpu"/*.json >/dev/null 2>&1 && fail "documents were written without a GPU: $(ls "$WORK/nogpu"/*.json)"
(cd "$WORK" && env PATH="$WORK/bin:$PATH" KBENCH_BUILD_DIR="$repo/build" KBENCH_CHECK_CLOCK="$WORK/nogpu.clock" \
  KBENCH_CHECK_TIME_SCALE=0.03 FAKE_GPU="" FAKE_TIMES="$WORK/times" FAKE_LIB="$FAKES/fake_lib.sh" \
  bash "$repo/scripts/gpu-check.sh" "$WORK/nogpu2" >/dev/null 2>&1) && fail "a visit without a GPU exited 0"

# The bundle's binaries do not load; the device build (a stand-in for scripts/build-on-device.sh)
# makes ones that do.
error="kbench: error while loading shared libraries: libstdc++.so.6: version \`GLIBCXX_3.4.32' not found"
cat >"$repo/scripts/build-on-device.sh" <<SH
#!/usr/bin/env bash
mkdir -p "\$1/apps/kbench" "\$1/tests/gpu"
printf '#!/usr/bin/env bash\nFAKE_LOAD_ERROR= exec %s "\$@"\n' "$FAKES/kbench" >"\$1/apps/kbench/kbench"
ln -sf "$FAKES/kbench_gpu_tests" "\$1/tests/gpu/kbench_gpu_tests"
chmod +x "\$1/apps/kbench/kbench"
echo "built in \$1"
SH
mkdir -p "$repo/.deps"
visit fallback 470 FAKE_LOAD_ERROR="$error" KBENCH_CHECK_STEPS="seeds-050" KBENCH_CHECK_BUNDLE=1
cat "$WORK/fallback/summary.txt"
expect_status fallback ok build-on-device info seeds-050
tar xzf "$WORK/fallback/gpu-check.tar.gz" -C "$WORK" kbench-load.log || fail "the bundle lacks kbench-load.log"
grep -qF "$error" "$WORK/kbench-load.log" || fail "kbench-load.log lacks the loader's error"
grep -qF "GLIBCXX_3.4.32" "$WORK/fallback/summary.txt" || fail "the summary does not name the loader's error"
grep -q "^\$ .*build/device/apps/kbench/kbench compare" <(tar xzOf "$WORK/fallback/gpu-check.tar.gz" seeds-050.log) ||
  fail "the seeds did not run on the device build"
rm -r "$repo/.deps"
visit nodeps 470 FAKE_LOAD_ERROR="$error" KBENCH_CHECK_STEPS="seeds-050"
grep -qF "$error" "$WORK/nodeps/kbench-load.log" || fail "without .deps the loader's error is not kept"
grep -q '^build-on-device ' "$WORK/nodeps/summary.txt" && fail "a device build without .deps"
expect_status nodeps 'FAILED' info
expect_status nodeps 'NOT RUN \(no GPU\)' seeds-050
echo "PASS"
