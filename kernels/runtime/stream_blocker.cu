#include "runtime/stream_blocker.hpp"

#include <atomic>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

__device__ unsigned long long global_timer_ns() {
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

// volatile: every iteration reads the flag from host memory again rather than a register copy.
__global__ void block_stream_kernel(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long start = global_timer_ns();
  while (flags[0] == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      flags[1] = 1;
      return;
    }
#if __CUDA_ARCH__ >= 700
    __nanosleep(1000);  // a microsecond between polls: no PCIe storm, still far below any sample
#endif
  }
}

}  // namespace

StreamBlocker::StreamBlocker(std::uint64_t timeout_ns) : timeout_ns_(timeout_ns) {
  void* host = nullptr;
  KBENCH_CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  host_flags_ = static_cast<int*>(host);
  host_flags_[0] = host_flags_[1] = 0;
  void* device = nullptr;
  if (const cudaError_t status = cudaHostGetDevicePointer(&device, host, 0); status != cudaSuccess) {
    (void)cudaFreeHost(host);
    KBENCH_CUDA_CHECK(status);
  }
  device_flags_ = static_cast<int*>(device);
}

StreamBlocker::~StreamBlocker() {
  if (!host_flags_) return;
  // A kernel still spinning would read freed memory: let it go first.
  release();
  (void)cudaDeviceSynchronize();
  (void)cudaFreeHost(host_flags_);
}

void StreamBlocker::block(cudaStream_t stream) {
  std::atomic_ref<int>(host_flags_[0]).store(0, std::memory_order_release);
  std::atomic_ref<int>(host_flags_[1]).store(0, std::memory_order_release);
  block_stream_kernel<<<1, 1, 0, stream>>>(device_flags_, timeout_ns_);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void StreamBlocker::release() { std::atomic_ref<int>(host_flags_[0]).store(1, std::memory_order_seq_cst); }

bool StreamBlocker::timed_out() const {
  return std::atomic_ref<int>(host_flags_[1]).load(std::memory_order_acquire) != 0;
}

}  // namespace kbench::gpu
