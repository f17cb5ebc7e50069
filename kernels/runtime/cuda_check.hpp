#pragma once
// Every CUDA runtime call is checked; a failure throws with the call text and file:line, and
// the runner turns it into that result's "failed" status (never exit(), never a crash).
#include <cuda_runtime_api.h>

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace kbench::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// A kernel fault (an illegal or misaligned address, an illegal instruction, a trap, an assertion)
// is "sticky": the process's CUDA context stays unusable, and every later call fails with it.
bool is_sticky_error(cudaError_t status);

// The first sticky error a process met, kept so that what cannot run after it says why, instead of
// failing with the same error once per result as if each had faulted.
class ContextFaultLog {
 public:
  void record(cudaError_t status, const std::string& message);  // keeps the first sticky one
  std::optional<std::string> first() const;

 private:
  mutable std::mutex mutex_;
  std::optional<std::string> first_;
};

ContextFaultLog& context_fault_log();  // this process's; check_cuda records into it

// Throws CudaError("FILE:LINE: CALL failed: cudaErrorX (description)") unless status is cudaSuccess.
void check_cuda(cudaError_t status, const char* call, const char* file, int line);

// After a library on the GPU (cuDNN, cudnn-frontend, torch) reported a failure of its own: asks the CUDA
// context whether a kernel fault is behind it (the last error, then a query of `stream`, which reaches the
// driver and so sees a fault raised by another runtime's launch, as torch's). A sticky error is thrown
// as check_cuda throws it (CudaError, recorded in the fault log), naming `after`; otherwise this returns,
// leaving no non-sticky error behind, and the caller reports the library's own failure.
void check_context_after(const char* after, const char* file, int line, cudaStream_t stream = nullptr);

}  // namespace kbench::gpu

#define KBENCH_CUDA_CHECK_CONTEXT_AFTER(what, stream) \
  ::kbench::gpu::check_context_after((what), __FILE__, __LINE__, (stream))
#define KBENCH_CUDA_CHECK(call) ::kbench::gpu::check_cuda((call), #call, __FILE__, __LINE__)
// After a kernel launch: catches bad launch configurations at once.
#define KBENCH_CUDA_CHECK_LAUNCH() ::kbench::gpu::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
