// Launchers of the half-precision transposed convolution's weight packing and bias fill
// (half_phase_kernel.cuh). The phase GEMMs themselves are half_gemm.cu's.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/transposed_phase_half/half_phase_kernel.cuh"
#include "cuda/transposed_phase_half/half_phase.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::half_gemm {

namespace {

// Grid-stride loops: a bounded grid covers any size (as the direct kernel's).
unsigned grid_for(std::int64_t elements) {
  const std::int64_t blocks = (elements + kPhaseThreads - 1) / kPhaseThreads;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{1} << 20));
}

}  // namespace

void launch_pack_phase_weights(const HalfPhaseGemm& g, const void* w, std::uint16_t* packed, cudaStream_t stream) {
  pack_phase_weights_kernel<<<grid_for(packed_elements(g)), kPhaseThreads, 0, stream>>>(
      g, static_cast<const std::uint16_t*>(w), packed + g.packed_offset);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void launch_untapped_bias_fill(const BiasFillParams& f, const Operands& ops, cudaStream_t stream) {
  if (!f.has_work) return;
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const auto* bias = Operands::as<std::uint16_t>(ops.bias);
  auto* y = Operands::as<std::uint16_t>(ops.y);
  // A block per line, at most 2^20 blocks walking the lines.
  const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>(f.lines, 1, std::int64_t{1} << 20));
  if (fill_vectors(f) && aligned(y) && aligned(bias)) {
    untapped_bias_fill_kernel<true><<<blocks, kPhaseThreads, 0, stream>>>(f, bias, y);
  } else {
    untapped_bias_fill_kernel<false><<<blocks, kPhaseThreads, 0, stream>>>(f, bias, y);
  }
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::conv::half_gemm
