#pragma once
// Every cuDNN call is checked like every CUDA call: a failure throws with the call text,
// file:line and cuDNN's own description, and the runner reports that result as failed.
#include <cudnn.h>

#include <stdexcept>
#include <string>

namespace kbench::gpu {

class CudnnError : public std::runtime_error {
 public:
  CudnnError(cudnnStatus_t status, const std::string& message) : std::runtime_error(message), status_(status) {}
  cudnnStatus_t status() const { return status_; }

 private:
  cudnnStatus_t status_;
};

// CUDNN_STATUS_EXECUTION_FAILED and its kinds (_CUDA_DRIVER, _CUBLAS, _CUDART, _CURAND): a failure on
// the device, which may be a kernel fault that left the CUDA context unusable.
bool is_execution_failure(cudnnStatus_t status);

// Throws CudnnError("FILE:LINE: CALL failed: CUDNN_STATUS_X (cuDNN's last error message)"); for an
// execution failure, first asks the CUDA context (check_context_after), so that a kernel fault throws
// as the CudaError every backend reports, not as this algorithm's failure.
void check_cudnn(cudnnStatus_t status, const char* call, const char* file, int line);

}  // namespace kbench::gpu

#define KBENCH_CUDNN_CHECK(call) ::kbench::gpu::check_cudnn((call), #call, __FILE__, __LINE__)
