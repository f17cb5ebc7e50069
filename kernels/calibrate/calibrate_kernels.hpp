#pragma once
// The three measurements behind `kbench calibrate`, each timed with CUDA events and reported
// as its best repetition (the ceiling the device reaches, not its average):
//   copy bandwidth - a device-to-device copy kernel with 16-byte accesses, bytes read + written;
//   FP32 rate      - independent FFMA chains, every SM fully occupied;
//   TF32 rate      - independent mma.sync m16n8k8 TF32 chains (the instruction kbench's own
//                    kernels use; Hopper's wgmma path is faster, see docs/gpu-runtime.md).
#include <cstdint>

namespace kbench::gpu {

struct RateMeasurement {
  double best = 0;    // bytes/s or FLOP/s of the fastest repetition
  double median = 0;  // of all repetitions, for the record
  int repetitions = 0;
};

// `bytes` per buffer (two buffers are allocated); the current device is used.
RateMeasurement measure_copy_bandwidth(std::int64_t bytes, int repetitions);
RateMeasurement measure_fp32_ffma_rate(int repetitions);
RateMeasurement measure_tf32_mma_rate(int repetitions);

}  // namespace kbench::gpu
