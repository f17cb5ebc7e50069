#pragma once
// Holds a stream on the device while the host enqueues a timed execution, as nvbench's blocking
// kernel does: a one-thread kernel spins on a flag in host-mapped memory, the start event is queued
// behind it, and the host sets the flag only once the stop event is recorded. The interval then
// starts when the whole execution is already queued, so host time spent inside enqueue() (argument
// set-up, cuDNN's plan lookup, several launches) is never counted as device time.
//
// An enqueue() that waits for the device (a synchronising call) would wait for the spinning kernel
// forever; the kernel gives up after a timeout instead and says so (timed_out()), and the caller
// retakes the sample without blocking (docs/gpu-runtime.md, "Timing protocol").
#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::gpu {

class StreamBlocker {
 public:
  // Ten seconds: far beyond any host enqueue, short enough that a deadlock costs one sample only.
  static constexpr std::uint64_t kDefaultTimeoutNs = 10'000'000'000ULL;

  explicit StreamBlocker(std::uint64_t timeout_ns = kDefaultTimeoutNs);
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  void block(cudaStream_t stream);  // clears the flags, then launches the spinning kernel
  void release();                   // lets the kernel finish (host side, no CUDA call)
  // After the stream has been synchronised: whether the kernel stopped waiting on its own.
  bool timed_out() const;

 private:
  // [0] release flag (host writes), [1] timed-out flag (kernel writes); pinned and mapped.
  int* host_flags_ = nullptr;
  int* device_flags_ = nullptr;
  std::uint64_t timeout_ns_;
};

}  // namespace kbench::gpu
