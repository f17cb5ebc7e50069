#pragma once
// KBENCH_GPU_TESTS_DRY_RUN=1: the device test cases run without a device and launch nothing; the
// kernel tests check only that every problem they draw lies in the envelope of the variant they
// force (check_family stops there). The kernel tests draw their shapes at random (other shapes per
// KBENCH_TEST_SEED); a draw outside its variant's envelope would fail on the GPU as a test bug, so
// the CPU checks the draws first (tests/cli/test_gpu_tests_dry_run.sh), on the default seed and on
// those the GPU soak takes. Only the cases check_family serves know the mode: run it with
// scripts/gpu-soak.sh's test-case filter (the other device cases would fail without a device).
#include <cstdlib>
#include <cstring>

namespace kbench::gpu_tests {

inline bool dry_run() {
  const char* value = std::getenv("KBENCH_GPU_TESTS_DRY_RUN");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace kbench::gpu_tests
