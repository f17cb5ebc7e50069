# scripts/gpu-check.sh's budget, on the test clock with stand-ins (tests/cli/gpu_check_fakes/):
#   - when every kbench and GPU-test process hangs, a 470 s visit still runs every step of stages 1-3,
#     each cut at its limit (the limits fit the budget), what fits of stage 4 in what is left,
#     stage 5 from its reserve, and leaves no stand-in alive after its step;
#   - a 120 s call at plausible step times runs the headline and its merge, the GPU tests, the fp16
#     seeds, then the next step that still fits (the backward examples), no step of stage 4, and stage 5;
#   - KBENCH_CHECK_STEPS="seeds-0* merge-seeds figures", the second call's recipe, selects the fp32/tf32
#     seeds alone;
#   - CUDA's tools off PATH are found in KBENCH_CUDA_ROOT; without compute-sanitizer each sanitizer
#     step says so in the summary.
source "$(dirname "$0")/lib.sh"
source "$SRC/tests/cli/gpu_check_fakes/setup.sh"

visit hang 470 FAKE_TIMES="$WORK/hang-times"
cat "$WORK/hang/summary.txt"
expect_status hang ok nvidia-smi-before info nvidia-smi-after
expect_status hang 'TIMEOUT|FAILED \(exit 1\)' plan seeds-050 seeds-076 seeds-077 seeds-084 gpu-tests seeds-fp16-nhwc \
  seeds-bf16-nhwc seeds-backward examples-backward examples memcheck memcheck-half memcheck-backward
# What stages 1-3 leave (they end at 402 s), less stage 5's reserve, goes to stage 4 in its order: the
# timing-protocol check (50 s); the 3 s then left are too few for anything else.
expect_status hang 'TIMEOUT after 50s' timing-protocol
expect_status hang 'NOT RUN \(out of time\)' "${STAGE_4[@]:1}"
expect_status hang 'NOT RUN \(no parts\)' merge-seeds merge-variants
expect_status hang 'NOT RUN \(no seeds.json\)' figures
(( $(elapsed_of hang) <= 470 )) || fail "the hung visit took $(elapsed_of hang)s of 470"
sleep 0.3
alive && fail "a hung stand-in outlived its step"

visit short 120
cat "$WORK/short/summary.txt"
# After the fp16 seeds (92 s), 13 s are left before the reserve: too few for the bf16 seeds (limit 30),
# enough for the backward examples (limit 20), then too few for anything else.
expect_status short ok nvidia-smi-before info plan seeds-050 seeds-076 seeds-077 seeds-084 merge-seeds gpu-tests \
  seeds-fp16-nhwc examples-backward figures nvidia-smi-after
expect_status short 'NOT RUN \(out of time\)' seeds-bf16-nhwc seeds-backward examples memcheck memcheck-half \
  memcheck-backward "${STAGE_4[@]}"
expect_status short 'NOT RUN \(no parts\)' merge-variants
expect_status short 'skipped \(no time left\)' gpu-soak
(( $(elapsed_of short) <= 120 )) || fail "the 120 s visit took $(elapsed_of short)s"

# The second call's recipe (docs/perf-notes.md): `seeds-0*` runs the fp32/tf32 seeds alone, not the
# half and backward steps `seeds-*` would also take.
visit second 120 KBENCH_CHECK_STEPS="seeds-0* merge-seeds figures"
expect_status second ok info seeds-050 seeds-076 seeds-077 seeds-084 merge-seeds figures
expect_status second 'skipped \(not selected\)' seeds-fp16-nhwc seeds-bf16-nhwc seeds-backward gpu-tests nvidia-smi-after
grep -q '^all steps ok' "$WORK/second/summary.txt" || fail "steps not selected counted as failures"

# The image's CUDA tools need not be on PATH: compute-sanitizer and ncu in KBENCH_CUDA_ROOT/bin.
rm "$WORK/bin/compute-sanitizer" "$WORK/bin/ncu"
ln -s "$FAKES/compute-sanitizer" "$WORK/cuda/bin/compute-sanitizer"
ln -s "$FAKES/ncu" "$WORK/cuda/bin/ncu"
visit beside 470 KBENCH_CHECK_STEPS="memcheck*,profile"
expect_status beside ok memcheck memcheck-half memcheck-backward profile
rm "$WORK/cuda/bin/compute-sanitizer"
visit none 470 KBENCH_CHECK_STEPS="memcheck*,racecheck"
expect_status none 'NOT RUN \(no compute-sanitizer\)' memcheck memcheck-half memcheck-backward racecheck
grep -q 'compute-sanitizer not found' "$WORK/none/summary.txt" || fail "the summary does not say why the sanitizers did not run"
echo "PASS"
