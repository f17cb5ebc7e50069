#pragma once
// Which family runs a problem by default: the fastest expected for the math. TF32 where allowed; for
// fp32 the 3xTF32 GEMMs, whose operand split keeps each product within 2^-19 relative
// (test_cuda_tf32_bits.cpp) and which the GPU tests hold to the fp32 tolerance; the strict FFMA GEMMs
// stay variants. Every run is verified against the fp64 reference within the fp32 error bound
// (docs/verification.md), so a 3xTF32 result that misses it fails loudly rather than passing for fp32. The families'
// envelopes are in family_table.hpp; this file is the policy between them.
#include <cstdint>
#include <optional>

#include "cuda/family_table.hpp"
#include "cuda/implicit_gemm/forward_gemm_choice.hpp"
#include "cuda/transposed/forward_equivalent.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv {

// The reduction of one output: (C_in/g) x the taps that reach it. Forward, every tap; transposed,
// at most one phase's, ceil(kernel / tap period) along each dimension (a x2 upsampler's 4x4: 2 x 2).
// (Called qualified: kbench::reduction_length, problem/conv_pass.hpp, is found by ADL too.)
inline std::int64_t reduction_length(const ConvProblem& p) {
  if (!p.transposed()) return p.in_channels_per_group() * p.kernel_volume();
  std::int64_t taps = 1;
  for (int d = 0; d < p.spatial_rank; ++d) taps *= ceil_div(p.kernel[d], make_phase_dim(p, d).period);
  return p.in_channels_per_group() * taps;
}

// A GEMM pays off once both its M (output channels per group) and its reduction have some length.
inline bool gemm_worthwhile(const ConvProblem& p) {
  return p.out_channels_per_group() >= 8 && conv::reduction_length(p) >= 8;
}

// Whether family `f`, the default for a stride-1 transposed problem's forward equivalent `forward`,
// runs a kernel the transposed families lack, and so pays for the launch that rewrites the weights:
// the register depthwise kernel, direct_tiled's unrolled forward instances, a GEMM in the input_patch
// order or with A resident. A forward GEMM otherwise is the phase GEMM the transposed family runs
// (at stride 1 a single phase with every tap: same order, tile and schedule), less that launch.
inline bool forward_kernel_pays(Family f, const ConvProblem& forward) {
  if (f == Family::depthwise2d || f == Family::direct_tiled) return true;
  if (!is_implicit_gemm(f)) return false;
  const igemm::GemmConvDesc d = forward_gemm_desc(as_rank3(forward), KernelChoice{.family = f});
  return d.order == igemm::KOrder::input_patch || d.a_schedule == igemm::ASchedule::resident;
}

inline Family default_family(const ConvProblem& p, MathMode math) {
  // A backward_data pass runs as the forward pass of its backward_data_problem: that problem's default.
  if (p.pass == Pass::backward_data) return default_family(backward_data_problem(p), math);
  // backward_weights: depthwise problems on their own family (fp32 NCHW), where the generic GEMM's
  // tiles would be M = 1 row of padding; the GEMM, which takes every dtype and layout, for the rest.
  if (p.pass == Pass::backward_weights)
    return family_envelope(Family::wgrad_depthwise, p, math) ? Family::wgrad_depthwise : Family::wgrad_gemm_ffma;
  // Depthwise convolutions stored channels last, in every dtype: their own kernel, which reads whole
  // 16-byte vectors of channels (the fp32 families read NCHW only; the half GEMM's M would be 1).
  if (p.layout == Layout::nhwc && family_envelope(Family::depthwise_nhwc, p, math)) return Family::depthwise_nhwc;
  // fp16 and bf16: the tensor-core GEMMs (forward, or transposed by phases) where a GEMM pays (its M,
  // the output channels per group, and its reduction at least 8 long) and it runs the problem; what
  // it does not pay for (depthwise, groups of a few channels) on the shared-memory direct kernel in
  // NCHW; else the generic kernel, which takes every dtype and layout. The fp32 families below take
  // fp32 NCHW only.
  if (p.dtype != DType::fp32) {
    const Family half = p.transposed() ? Family::transposed_phase_half : Family::implicit_gemm_half;
    if (gemm_worthwhile(p) && family_envelope(half, p, math)) return half;
    return family_envelope(Family::direct_tiled, p, math) ? Family::direct_tiled : Family::direct;
  }
  // A stride-1 transposed convolution takes its forward equivalent's default where that pays.
  if (const std::optional<ConvProblem> forward = forward_equivalent(p))
    if (const Family f = default_family(*forward, math); forward_kernel_pays(f, *forward)) return f;
  const bool tf32 = math == MathMode::tf32;
  if (!p.transposed() && family_envelope(Family::depthwise2d, p, math)) return Family::depthwise2d;
  const Family gemm = p.transposed() ? (tf32 ? Family::transposed_phase_tf32 : Family::transposed_phase_3xtf32)
                                     : (tf32 ? Family::implicit_gemm_tf32 : Family::implicit_gemm_3xtf32);
  const bool gemm_fits = family_envelope(gemm, p, math).ok;
  if (gemm_worthwhile(p) && gemm_fits) return gemm;
  // What the GEMM does not pay for (under 8 output channels per group, the GEMM's M, or a reduction
  // under 8 long: depthwise and its upsamplers, groups of a few channels) goes to the shared-memory
  // direct kernel; where that does not fit either (many output channels on a short reduction: a
  // 1x1 from 4 channels to 4,096), a GEMM with a short reduction still beats `direct`.
  if (family_envelope(Family::direct_tiled, p, math)) return Family::direct_tiled;
  return gemm_fits ? gemm : Family::direct;
}

}  // namespace kbench::gpu::conv
