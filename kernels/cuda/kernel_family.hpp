#pragma once
// The cuda backend's kernel families: their names (as `--backends cuda:FAMILY` spells them) and the
// math each performs. Plain C++; kernel_selection.hpp says which family can run a problem.
//
//   direct                   any valid fp32 problem; one thread per output, fp32 FMA
//   depthwise2d              2-D depthwise (multiplier 1), stride 1, dilation 1, square 3/5/7 kernel; fp32 FMA
//   direct_tiled             convolutions, forward or transposed, whose input windows and weights fit 48 KB of shared
//   memory
//                            (depthwise, groups of a few channels; 1-D to 3-D); fp32 FMA
//   implicit_gemm_ffma       forward convolutions; fp32 FFMA
//   implicit_gemm_3xtf32     forward convolutions; split TF32 on tensor cores, fp32-level error
//   implicit_gemm_tf32       forward convolutions; TF32 tensor cores (math tf32 only)
//   transposed_phase_*       transposed convolutions, one GEMM per tapped phase; same three maths
//   implicit_gemm_half       forward convolutions of fp16/bf16 tensors (NHWC first, NCHW too); m16n8k16
//                            tensor cores, fp32 accumulation
//   transposed_phase_half    transposed convolutions of fp16/bf16 tensors: the half GEMM per tapped phase combination,
//                            each phase's weights packed first, the untapped outputs given the bias by one fill
//   depthwise_nhwc           depthwise convolutions (multiplier 1) of channels-last tensors, fp32/fp16/bf16, 1-D to
//                            3-D; 16-byte vectors of channels per thread, fp32 FMA, the output rounded once
//   wgrad_gemm_ffma          the backward_weights pass (grad_weight, grad_bias) of convolutions and transposed ones;
//                            implicit GEMM per group, fp32 FFMA, split-K summed in a fixed order
//   wgrad_depthwise          backward_weights of depthwise problems (multiplier 1): a block per channel and slice,
//                            all taps per thread from shared memory, fp32 FFMA, slices summed in a fixed order
#include <optional>
#include <string_view>

#include "core/types.hpp"
#include "cuda/common/variant_knobs.hpp"

namespace kbench::gpu::conv {

enum class Family {
  direct,
  depthwise2d,
  direct_tiled,
  implicit_gemm_ffma,
  implicit_gemm_3xtf32,
  implicit_gemm_tf32,
  transposed_phase_ffma,
  transposed_phase_3xtf32,
  transposed_phase_tf32,
  implicit_gemm_half,
  transposed_phase_half,
  depthwise_nhwc,
  wgrad_gemm_ffma,
  wgrad_depthwise,
};

inline constexpr Family kAllFamilies[] = {
    Family::direct,
    Family::depthwise2d,
    Family::direct_tiled,
    Family::implicit_gemm_ffma,
    Family::implicit_gemm_3xtf32,
    Family::implicit_gemm_tf32,
    Family::transposed_phase_ffma,
    Family::transposed_phase_3xtf32,
    Family::transposed_phase_tf32,
    Family::implicit_gemm_half,
    Family::transposed_phase_half,
    Family::depthwise_nhwc,
    Family::wgrad_gemm_ffma,
    Family::wgrad_depthwise,
};

inline std::string_view family_name(Family f) {
  switch (f) {
    case Family::direct: return "direct";
    case Family::depthwise2d: return "depthwise2d";
    case Family::direct_tiled: return "direct_tiled";
    case Family::implicit_gemm_ffma: return "implicit_gemm_ffma";
    case Family::implicit_gemm_3xtf32: return "implicit_gemm_3xtf32";
    case Family::implicit_gemm_tf32: return "implicit_gemm_tf32";
    case Family::transposed_phase_ffma: return "transposed_phase_ffma";
    case Family::transposed_phase_3xtf32: return "transposed_phase_3xtf32";
    case Family::transposed_phase_tf32: return "transposed_phase_tf32";
    case Family::implicit_gemm_half: return "implicit_gemm_half";
    case Family::transposed_phase_half: return "transposed_phase_half";
    case Family::depthwise_nhwc: return "depthwise_nhwc";
    case Family::wgrad_gemm_ffma: return "wgrad_gemm_ffma";
    case Family::wgrad_depthwise: return "wgrad_depthwise";
  }
  return "?";
}

inline std::optional<Family> parse_family(std::string_view name) {
  for (const Family f : kAllFamilies)
    if (family_name(f) == name) return f;
  return std::nullopt;
}

inline bool is_implicit_gemm(Family f) {
  return f == Family::implicit_gemm_ffma || f == Family::implicit_gemm_3xtf32 || f == Family::implicit_gemm_tf32;
}
inline bool is_transposed_phase(Family f) {
  return f == Family::transposed_phase_ffma || f == Family::transposed_phase_3xtf32 ||
         f == Family::transposed_phase_tf32;
}

// The GEMM math of a GEMM family.
inline igemm::GemmMath gemm_math(Family f) {
  if (f == Family::implicit_gemm_tf32 || f == Family::transposed_phase_tf32) return igemm::GemmMath::tf32;
  if (f == Family::implicit_gemm_3xtf32 || f == Family::transposed_phase_3xtf32) return igemm::GemmMath::tf32x3;
  return igemm::GemmMath::ffma;
}

// What the family computes in: only the plain TF32 GEMMs round to TF32.
inline MathMode family_math(Family f) {
  return gemm_math(f) == igemm::GemmMath::tf32 ? MathMode::tf32 : MathMode::fp32;
}

}  // namespace kbench::gpu::conv
