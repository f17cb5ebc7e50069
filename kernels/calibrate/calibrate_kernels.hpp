#pragma once
// The measurements behind `kbench calibrate`, each timed with CUDA events and reported as its
// best repetition (the ceiling the device reaches, not its average):
//   copy bandwidth - a device-to-device copy kernel with 16-byte accesses, bytes read + written;
//   FP32 rate      - independent FFMA chains, every SM fully occupied;
//   TF32 mma.sync  - independent mma.sync m16n8k8 TF32 chains (sm_80 on; most of kbench's
//                    tensor-core kernels use it);
//   fp16/bf16 mma.sync - the same with m16n8k16 fp16 or bf16 products, fp32 accumulation (sm_80 on;
//                    kbench's implicit_gemm_half);
//   wgmma          - wgmma products kept in flight (sm_90a only: Hopper's full tensor rate needs it;
//                    wgmma_rate_kernel.cuh): TF32 in two forms, m64n96k8 with A in registers (as
//                    kbench's wgmma kernel) and m64n256k8 with both operands in shared memory (as
//                    the fastest Hopper GEMMs); fp16 and bf16 as m64n256k16 from shared memory.
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
RateMeasurement measure_fp16_mma_rate(int repetitions);
RateMeasurement measure_bf16_mma_rate(int repetitions);
struct WgmmaRates {
  RateMeasurement registers_a_n96;  // TF32
  RateMeasurement shared_a_n256;    // TF32
  RateMeasurement fp16_n256;
  RateMeasurement bf16_n256;
};
// Compute capability 9.0 only (the kernels are built for sm_90a).
WgmmaRates measure_wgmma_rates(int repetitions);

}  // namespace kbench::gpu
