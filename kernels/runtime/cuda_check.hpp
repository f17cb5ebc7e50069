#pragma once
// Every CUDA runtime call is checked; a failure throws with the call text and file:line, and
// the runner turns it into that result's "failed" status (never exit(), never a crash).
#include <cuda_runtime_api.h>

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

// Throws CudaError("FILE:LINE: CALL failed: cudaErrorX (description)") unless status is cudaSuccess.
void check_cuda(cudaError_t status, const char* call, const char* file, int line);

}  // namespace kbench::gpu

#define KBENCH_CUDA_CHECK(call) ::kbench::gpu::check_cuda((call), #call, __FILE__, __LINE__)
// After a kernel launch: catches bad launch configurations at once.
#define KBENCH_CUDA_CHECK_LAUNCH() ::kbench::gpu::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
