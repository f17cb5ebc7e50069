#pragma once
// The `direct_tiled` family: every convolution, forward or transposed, whose smallest tile's input
// windows (one per input channel of a group and depth tap) and the group's weights fit in 48 KB of
// shared memory (direct_tiled_params.hpp): depthwise, groups of a few channels, 1-D to 3-D; fp32 FMA,
// on fp32, fp16 or bf16 tensors in NCHW (16-bit elements widened into shared memory, outputs rounded once).
#include "cuda/common/family_descriptor.hpp"
#include "cuda/direct/direct_tiled_index.hpp"
#include "cuda/direct/direct_tiled_params.hpp"

namespace kbench::gpu::conv {

inline Support direct_tiled_envelope(const ConvProblem& p) { return direct_tiled::make_params(p).support; }

inline Support direct_tiled_choice_envelope(const KernelChoice&, const ConvProblem& p, MathMode) {
  return direct_tiled_envelope(p);
}

// "direct_tiled/k3" for the unrolled square-kernel instances, "direct_tiled/k1x5" otherwise;
// transposed, "direct_tiled/transposed_k4x4_pairs" (at most 2 x 2 taps a phase, unrolled) or
// "direct_tiled/transposed_k5x5".
inline std::string direct_tiled_name(const direct_tiled::DirectTiledParams& d) {
  const int instance = direct_tiled::instance_kernel(d);
  if (instance == direct_tiled::kTransposedPairs)
    return fmt::format("direct_tiled/transposed_k{}x{}_pairs", d.kernel_h, d.kernel_w);
  if (instance == direct_tiled::kTransposedInstance)
    return fmt::format("direct_tiled/transposed_k{}x{}", d.kernel_h, d.kernel_w);
  if (instance != 0) return fmt::format("direct_tiled/k{}", d.kernel_h);
  return fmt::format("direct_tiled/k{}x{}", d.kernel_h, d.kernel_w);
}

inline KernelDescription describe_direct_tiled(const KernelChoice&, const ConvProblem& p, const LaunchDevice&) {
  const direct_tiled::DirectTiledParams d = direct_tiled::make_params(p).desc;
  return {direct_tiled_name(d),
          {{"block", fmt::format("{} threads, {} rows x {} columns of output, {} per thread", direct_tiled::kThreads,
                                 d.tile_rows(), d.tile_cols(), d.per_thread)},
           {"input_windows", fmt::format("{} of {} x {} floats in shared memory (input channels of a group x depth "
                                         "taps)",
                                         d.stack(), d.window_rows, d.window_cols)},
           {"smem_bytes", std::to_string(d.smem_bytes())},
           {"out_channels_per_group", std::to_string(d.multiplier)},
           {"blocks", std::to_string(d.blocks())},
           {"launches", "1"}}};
}

inline constexpr FamilyDescriptor kDirectTiledFamily{
    .family = Family::direct_tiled,
    .summary = "direct from input windows in shared memory: depthwise, small groups, forward and transposed",
    .dtypes = kAllDTypes,
    .computes_in = MathMode::fp32,
    .knobs = 0,
    .runs_forward_equivalent = true,
    .envelope = direct_tiled_choice_envelope,
    .any_extent = false,
    .variants = no_more_variants,
    .describe = describe_direct_tiled,
    .architecture_need = no_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
