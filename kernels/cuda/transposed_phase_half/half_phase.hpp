#pragma once
// Host entry points of a half-precision transposed convolution by phases (plain C++):
// half_phase_index.hpp's GEMMs, their weights packed first, and the bias fill.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/common/operands.hpp"
#include "cuda/transposed_phase_half/half_phase_index.hpp"

namespace kbench::gpu::conv::half_gemm {

// Packs phase GEMM g's B from the stored weights `w` into `packed` (at g.packed_offset).
void launch_pack_phase_weights(const HalfPhaseGemm& g, const void* w, std::uint16_t* packed, cudaStream_t stream);
// Writes the bias (or zero) to every output of ops.y on an untapped phase; nothing without any.
void launch_untapped_bias_fill(const BiasFillParams& f, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::half_gemm
