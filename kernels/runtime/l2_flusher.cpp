#include "runtime/l2_flusher.hpp"

#include <algorithm>
#include <iostream>
#include <mutex>

#include <fmt/format.h>

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

PersistingResetOutcome classify_persisting_reset(cudaError_t status) {
  if (status == cudaSuccess) return PersistingResetOutcome::done;
  if (status == cudaErrorNotSupported) return PersistingResetOutcome::not_supported;
  return is_sticky_error(status) ? PersistingResetOutcome::fatal : PersistingResetOutcome::refused;
}

L2Flusher::L2Flusher(int device) : buffer_(allocate_on(device, flush_bytes(l2_size(device)))) {
  const cudaError_t status = cudaCtxResetPersistingL2Cache();
  switch (classify_persisting_reset(status)) {
    case PersistingResetOutcome::done:
    case PersistingResetOutcome::not_supported: break;
    case PersistingResetOutcome::fatal: KBENCH_CUDA_CHECK(status); break;
    case PersistingResetOutcome::refused: {
      warning_ = fmt::format(
          "the device refused the persisting-L2 reset ({}): a persisting access window set earlier in this process "
          "could keep lines through the cold flush",
          cudaGetErrorName(status));
      static std::once_flag warned;
      std::call_once(warned, [&] { std::cerr << "kbench: warning: " << *warning_ << "\n"; });
      break;
    }
  }
  (void)cudaGetLastError();  // a refusal is not left for the next unrelated check to report
}

void L2Flusher::flush(cudaStream_t stream) {
  value_ = static_cast<unsigned char>(value_ ^ 0x5a);
  KBENCH_CUDA_CHECK(cudaMemsetAsync(buffer_.data(), value_, buffer_.bytes(), stream));
}

}  // namespace kbench::gpu
