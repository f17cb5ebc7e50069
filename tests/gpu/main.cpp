// kbench_gpu_tests: the host-only cases (test suite "host": pure logic of the GPU layer) run
// everywhere; the device cases run only where CUDA finds a device, and otherwise the program
// exits 77, which ctest reports as "skipped" (SKIP_RETURN_CODE); or, under
// KBENCH_GPU_TESTS_DRY_RUN=1, without one and launching nothing (dry_run.hpp). Listing (-ltc)
// names them all.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "dry_run.hpp"
#include "runtime/device_info.hpp"

namespace {

constexpr int kSkipped = 77;

}  // namespace

// Whether the command line asks for the list of test cases (doctest's -ltc, --list-test-cases, with
// or without its dt- prefix).
bool lists_test_cases(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    while (!arg.empty() && arg.front() == '-') arg.remove_prefix(1);
    if (arg.starts_with("dt-")) arg.remove_prefix(3);
    if (arg == "ltc" || arg == "list-test-cases") return true;
  }
  return false;
}

int main(int argc, char** argv) {
  // The list names every case, host and device, on any machine: scripts/run-gpu-tests.sh runs each
  // in a process of its own.
  if (lists_test_cases(argc, argv)) return doctest::Context(argc, argv).run();

  doctest::Context host(argc, argv);
  host.addFilter("test-suite", "host");
  const int host_result = host.run();
  if (host.shouldExit() || host_result != 0) return host_result;

  if (kbench::gpu_tests::dry_run()) {
    std::printf(
        "dry run (KBENCH_GPU_TESTS_DRY_RUN=1): the device cases check their problems' envelopes, "
        "launch nothing\n");
  } else if (const kbench::Support cuda = kbench::gpu::cuda_status(); !cuda) {
    // cuda_status() says "no CUDA device found: <runtime message>"; print the runtime's words.
    std::string_view why = cuda.reason;
    if (const auto colon = why.find(": "); colon != std::string_view::npos) why.remove_prefix(colon + 2);
    std::printf("no CUDA device: %.*s; skipping the device tests\n", static_cast<int>(why.size()), why.data());
    return kSkipped;
  }

  doctest::Context device(argc, argv);
  device.addFilter("test-suite-exclude", "host");
  return device.run();
}
