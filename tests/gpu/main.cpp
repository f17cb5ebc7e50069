// kbench_gpu_tests: the host-only cases (test suite "host": pure logic of the GPU layer) run
// everywhere; the device cases run only where CUDA finds a device, and otherwise the program
// exits 77, which ctest reports as "skipped" (SKIP_RETURN_CODE).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "runtime/device_info.hpp"

namespace {

constexpr int kSkipped = 77;

}  // namespace

int main(int argc, char** argv) {
  doctest::Context host(argc, argv);
  host.addFilter("test-suite", "host");
  const int host_result = host.run();
  if (host.shouldExit() || host_result != 0) return host_result;

  const kbench::Support cuda = kbench::gpu::cuda_status();
  if (!cuda) {
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
