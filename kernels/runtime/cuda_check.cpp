#include "runtime/cuda_check.hpp"

#include <fmt/format.h>

namespace kbench::gpu {

bool is_sticky_error(cudaError_t status) {
  switch (status) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    // Hardware faults: uncorrectable ECC, a contained (isolated) error, NVLink. The context is lost.
    case cudaErrorECCUncorrectable:
    case cudaErrorContained:
    case cudaErrorNvlinkUncorrectable: return true;
    default: return false;
  }
}

void ContextFaultLog::record(cudaError_t status, const std::string& message) {
  if (!is_sticky_error(status)) return;
  const std::lock_guard lock(mutex_);
  if (!first_) first_ = message;
}

std::optional<std::string> ContextFaultLog::first() const {
  const std::lock_guard lock(mutex_);
  return first_;
}

ContextFaultLog& context_fault_log() {
  static ContextFaultLog log;
  return log;
}

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // A sticky error (a kernel fault) poisons the context for good; a non-sticky one is cleared
  // here so it is not reported a second time by the next unrelated check.
  (void)cudaGetLastError();
  const std::string message =
      fmt::format("{}:{}: {} failed: {} ({})", file, line, call, cudaGetErrorName(status), cudaGetErrorString(status));
  context_fault_log().record(status, message);
  throw CudaError(status, message);
}

void check_context_after(const char* after, const char* file, int line, cudaStream_t stream) {
  const std::string call = fmt::format("the CUDA context after {}", after);
  if (const cudaError_t pending = cudaPeekAtLastError(); is_sticky_error(pending))
    check_cuda(pending, call.c_str(), file, line);
  (void)cudaGetLastError();  // a non-sticky error is the library's own failure, already reported by it
  if (const cudaError_t queried = cudaStreamQuery(stream); is_sticky_error(queried))
    check_cuda(queried, call.c_str(), file, line);
  (void)cudaGetLastError();  // cudaErrorNotReady: work still running, no fault seen
}

}  // namespace kbench::gpu
