#pragma once
// The measurements behind `kbench calibrate`, each timed with CUDA events and reported as its
// best repetition (the ceiling the device reaches, not its average):
//   copy bandwidth - a device-to-device copy kernel with 16-byte accesses, bytes read + written;
//   FP32 rate      - independent FFMA chains, every SM fully occupied;
//   TF32 mma.sync  - independent mma.sync m16n8k8 TF32 chains (sm_80 on; most of kbench's
//                    tensor-core kernels use it);
//   TF32 wgmma     - wgmma products kept in flight (sm_90a only: Hopper's full TF32 rate needs it;
//                    tf32_wgmma_rate_kernel.cuh), in two forms: m64n96k8 with A in registers (as
//                    kbench's wgmma kernel) and m64n256k8 with both operands in shared memory (as
//                    the fastest Hopper GEMMs).
#include <cstdint>

namespace kbench::gpu {

struct RateMeasurement {
  double best = 0;    // bytes/s or FLOP/s of the fastest repetition
  double median = 0;  // of all repetitions, for the record
  int repetitions = 0;
  double clock_hz = 0;  // mean SM clock across the timed repetitions; 0 when it could not be told
};

// `bytes` per buffer (two buffers are allocated); the current device is used.
RateMeasurement measure_copy_bandwidth(std::int64_t bytes, int repetitions);
RateMeasurement measure_fp32_ffma_rate(int repetitions);
RateMeasurement measure_tf32_mma_rate(int repetitions);
struct WgmmaRates {
  RateMeasurement registers_a_n96;
  RateMeasurement shared_a_n256;
};
// Compute capability 9.0 only (the kernels are built for sm_90a).
WgmmaRates measure_tf32_wgmma_rates(int repetitions);

}  // namespace kbench::gpu
