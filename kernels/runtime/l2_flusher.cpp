#include "runtime/l2_flusher.hpp"

#include <algorithm>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

std::int64_t l2_size(int device) {
  int bytes = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
  return bytes;
}

DeviceBuffer<unsigned char> allocate_on(int device, std::int64_t bytes) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device));
  return DeviceBuffer<unsigned char>(bytes);
}

}  // namespace

std::int64_t L2Flusher::flush_bytes(std::int64_t l2_bytes) {
  constexpr std::int64_t kernelbench_flush = std::int64_t{256} << 20;
  return std::max(2 * l2_bytes, kernelbench_flush);
}

L2Flusher::L2Flusher(int device) : buffer_(allocate_on(device, flush_bytes(l2_size(device)))) {
  // Devices without persisting-L2 support (before Ampere) have nothing to reset.
  const cudaError_t status = cudaCtxResetPersistingL2Cache();
  if (status != cudaErrorNotSupported) KBENCH_CUDA_CHECK(status);
  (void)cudaGetLastError();
}

void L2Flusher::flush(cudaStream_t stream) {
  value_ = static_cast<unsigned char>(value_ ^ 0x5a);
  KBENCH_CUDA_CHECK(cudaMemsetAsync(buffer_.data(), value_, buffer_.bytes(), stream));
}

}  // namespace kbench::gpu
