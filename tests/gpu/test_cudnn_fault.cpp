// A kernel fault that cuDNN is the first to meet must read as the CUDA fault it is (the run stops with
// the fault named, the other backends refuse the lost context), never as an algorithm that failed to
// execute. The fault poisons its process's CUDA context, so the case runs itself again in a child
// process (KBENCH_GPU_FAULT_CHILD=1) and checks there; the parent only reads the child's verdict.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "cudnn/cudnn_backend.hpp"
#include "cudnn/cudnn_check.hpp"
#include "dry_run.hpp"
#include "problem_factory.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device_info.hpp"
#include "spin_kernel.hpp"

namespace {

constexpr const char* kCaseName = "a kernel fault met first by cuDNN is the CUDA fault and the context is refused after";
constexpr const char* kChildVariable = "KBENCH_GPU_FAULT_CHILD";

std::string self_path() {
  char path[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

// In the child: prepare cuDNN on a healthy context, fault the context behind kbench's back (as a
// library's kernel would), then run: cuDNN is the first kbench call to meet the fault.
void fault_then_run_cudnn() {
  using kbench::gpu::CudaError;
  using kbench::gpu::CudnnError;
  const std::unique_ptr<kbench::Backend> backend = kbench::gpu::make_cudnn_backend();
  REQUIRE(backend->available().ok);
  const kbench::ConvProblem p{.op = kbench::OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 8,
                              .out_channels = 16, .input = kbench::Dims{{16, 16, 1}}, .kernel = kbench::Dims{{3, 3, 1}},
                              .pad_before = kbench::Dims{{1, 1, 0}}, .pad_after = kbench::Dims{{1, 1, 0}}, .bias = true};
  const std::unique_ptr<kbench::PreparedRun> run = backend->prepare(p, {});
  run->fill_inputs(1);
  kbench::gpu::testing::launch_illegal_write(nullptr);
  (void)cudaDeviceSynchronize();  // the fault has happened; kbench has not seen it (no check)
  REQUIRE_FALSE(kbench::gpu::context_fault_log().first().has_value());
  try {
    run->run();
    FAIL("the run went on over a faulted context");
  } catch (const CudaError& e) {
    CHECK(kbench::gpu::is_sticky_error(e.code()));
    MESSAGE("thrown: " << e.what());
  } catch (const CudnnError& e) {
    FAIL("the fault read as cuDNN's own failure: " << e.what());
  }
  REQUIRE(kbench::gpu::context_fault_log().first().has_value());
  const kbench::Support after = backend->available();
  CHECK_FALSE(after.ok);
  CHECK(after.reason.find("earlier kernel fault") != std::string::npos);
}

}  // namespace

// No comma in the name: doctest's --test-case takes a comma-separated list.
TEST_CASE(kCaseName) {
  if (kbench::gpu_tests::dry_run()) return;  // nothing to draw, nothing launched
  if (std::getenv(kChildVariable)) {
    fault_then_run_cudnn();
    return;
  }
  const std::string self = self_path();
  REQUIRE_FALSE(self.empty());
  const std::string command =
      std::string(kChildVariable) + "=1 '" + self + "' --test-case='" + kCaseName + "' --no-intro --no-version";
  const int status = std::system(command.c_str());
  REQUIRE(status != -1);
  const bool passed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  CHECK_MESSAGE(passed, "the child's checks failed (its output is above)");
}
