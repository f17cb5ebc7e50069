#include "cudnn/cudnn_check.hpp"

#include <fmt/format.h>

namespace kbench::gpu {

void check_cudnn(cudnnStatus_t status, const char* call, const char* file, int line) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  // cuDNN 9 keeps a per-thread message explaining the last failure (which parameter, why);
  // it says much more than the status name, so it goes into the error too.
  char detail[1024] = {};
  cudnnGetLastErrorString(detail, sizeof detail);
  std::string message = fmt::format("{}:{}: {} failed: {}", file, line, call, cudnnGetErrorString(status));
  if (detail[0] != '\0') message += fmt::format(" ({})", detail);
  throw CudnnError(status, message);
}

}  // namespace kbench::gpu
