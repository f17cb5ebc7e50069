#include "runtime/cuda_check.hpp"

#include <fmt/format.h>

namespace kbench::gpu {

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // A sticky error (a kernel fault) poisons the context for good; a non-sticky one is cleared
  // here so it is not reported a second time by the next unrelated check.
  (void)cudaGetLastError();
  throw CudaError(status, fmt::format("{}:{}: {} failed: {} ({})", file, line, call, cudaGetErrorName(status),
                                      cudaGetErrorString(status)));
}

}  // namespace kbench::gpu
