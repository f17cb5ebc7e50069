#pragma once
// Evicts the device's L2 before a cold sample by writing a buffer larger than it, as nvbench
// and KernelBench do (KernelBench writes 256 MiB; nvbench the L2's size). The write happens on
// the sample's stream before its start event, so it is never part of the timed region.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/device_buffer.hpp"

namespace kbench::gpu {

// What to make of cudaCtxResetPersistingL2Cache's answer. Sandboxed or virtualised drivers refuse
// some calls (one proxy answered error 999 to compute-sanitizer): a refusal must not fail every cold
// sample, since the flush itself still evicts every line no persisting window holds.
enum class PersistingResetOutcome {
  done,
  not_supported,  // before Ampere: there is nothing to reset
  refused,        // a non-sticky error: cleared, warned about once, the flushes go on
  fatal,          // a sticky error: the context is lost, and the caller throws
};
PersistingResetOutcome classify_persisting_reset(cudaError_t status);

class L2Flusher {
 public:
  // Sizes the buffer for `device` (see flush_bytes) and clears any persisting-L2 lines left by
  // earlier work in this context, so no access-policy window keeps data resident across samples.
  explicit L2Flusher(int device);

  void flush(cudaStream_t stream);
  std::int64_t bytes() const { return buffer_.size(); }
  // Set when the persisting-L2 reset was refused: what a result timed with this flusher should say.
  const std::optional<std::string>& warning() const { return warning_; }

  // max(2 x L2, 256 MiB): twice the L2 so that no line of the previous sample can survive
  // whatever the replacement policy, and never less than the KernelBench protocol's 256 MiB.
  static std::int64_t flush_bytes(std::int64_t l2_bytes);

 private:
  DeviceBuffer<unsigned char> buffer_;
  unsigned char value_ = 0;  // alternated per flush so no write can be elided as redundant
  std::optional<std::string> warning_;
};

}  // namespace kbench::gpu
