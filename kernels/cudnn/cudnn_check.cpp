#include "cudnn/cudnn_check.hpp"

#include <fmt/format.h>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

bool is_execution_failure(cudnnStatus_t status) {
  switch (status) {
    case CUDNN_STATUS_EXECUTION_FAILED:
    case CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER:
    case CUDNN_STATUS_EXECUTION_FAILED_CUBLAS:
    case CUDNN_STATUS_EXECUTION_FAILED_CUDART:
    case CUDNN_STATUS_EXECUTION_FAILED_CURAND: return true;
    default: return false;
  }
}

void check_cudnn(cudnnStatus_t status, const char* call, const char* file, int line) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  if (is_execution_failure(status))
    check_context_after(fmt::format("{} returned {}", call, cudnnGetErrorString(status)).c_str(), file, line);
  // cuDNN 9 keeps a per-thread message explaining the last failure (which parameter, why);
  // it says much more than the status name, so it goes into the error too.
  char detail[1024] = {};
  cudnnGetLastErrorString(detail, sizeof detail);
  std::string message = fmt::format("{}:{}: {} failed: {}", file, line, call, cudnnGetErrorString(status));
  if (detail[0] != '\0') message += fmt::format(" ({})", detail);
  throw CudnnError(status, message);
}

}  // namespace kbench::gpu
