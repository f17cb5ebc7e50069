#pragma once
// Owners for the runtime's stream, event and executable-graph handles, so a constructor that
// throws half-way (an allocation that does not fit) leaks nothing. Destruction never throws:
// a failed destroy leaves nothing the program could undo.
#include <cuda_runtime_api.h>

#include <utility>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

template <class Handle, cudaError_t (*Destroy)(Handle)>
class UniqueCudaHandle {
 public:
  UniqueCudaHandle() = default;
  explicit UniqueCudaHandle(Handle handle) : handle_(handle) {}
  ~UniqueCudaHandle() { reset(); }
  UniqueCudaHandle(const UniqueCudaHandle&) = delete;
  UniqueCudaHandle& operator=(const UniqueCudaHandle&) = delete;
  UniqueCudaHandle(UniqueCudaHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  UniqueCudaHandle& operator=(UniqueCudaHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }

  Handle get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  void reset() noexcept {
    if (handle_) (void)Destroy(handle_);
    handle_ = nullptr;
  }

 private:
  Handle handle_ = nullptr;
};

using CudaStream = UniqueCudaHandle<cudaStream_t, cudaStreamDestroy>;
using CudaEvent = UniqueCudaHandle<cudaEvent_t, cudaEventDestroy>;
using CudaGraph = UniqueCudaHandle<cudaGraph_t, cudaGraphDestroy>;
using CudaGraphExec = UniqueCudaHandle<cudaGraphExec_t, cudaGraphExecDestroy>;

// A blocking stream: it synchronises with the legacy default stream, where the timing events are
// recorded, so the timed region covers this stream's work and that of any other blocking stream a
// backend pushes work to (it cannot hide work from the timer by moving it elsewhere).
inline CudaStream make_stream() {
  cudaStream_t stream = nullptr;
  KBENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamDefault));
  return CudaStream(stream);
}

inline CudaEvent make_timing_event() {
  cudaEvent_t event = nullptr;
  KBENCH_CUDA_CHECK(cudaEventCreate(&event));
  return CudaEvent(event);
}

}  // namespace kbench::gpu
