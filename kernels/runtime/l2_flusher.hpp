#pragma once
// Evicts the device's L2 before a cold sample by writing a buffer larger than it, as nvbench
// and KernelBench do (KernelBench writes 256 MiB; nvbench the L2's size). The write happens on
// the sample's stream before its start event, so it is never part of the timed region.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "runtime/device_buffer.hpp"

namespace kbench::gpu {

class L2Flusher {
 public:
  // Sizes the buffer for `device` (see flush_bytes) and clears any persisting-L2 lines left by
  // earlier work in this context, so no access-policy window keeps data resident across samples.
  explicit L2Flusher(int device);

  void flush(cudaStream_t stream);
  std::int64_t bytes() const { return buffer_.size(); }

  // max(2 x L2, 256 MiB): twice the L2 so that no line of the previous sample can survive
  // whatever the replacement policy, and never less than the KernelBench protocol's 256 MiB.
  static std::int64_t flush_bytes(std::int64_t l2_bytes);

 private:
  DeviceBuffer<unsigned char> buffer_;
  unsigned char value_ = 0;  // alternated per flush so no write can be elided as redundant
};

}  // namespace kbench::gpu
