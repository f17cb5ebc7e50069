#pragma once
// The `depthwise_nhwc` family: depthwise convolutions (multiplier 1) of channels-last tensors in
// fp32, fp16 or bf16, 1-D to 3-D, any stride, dilation, padding, kernel and bias; fp32 FMA, the
// output rounded once. Each thread owns a 16-byte vector of channels at 4 output columns, so it
// needs C to be a multiple of the vector width. Design: docs/kernels/depthwise_nhwc.md.
#include <fmt/format.h>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/depthwise_nhwc/depthwise_nhwc_index.hpp"

namespace kbench::gpu::conv {

inline Support depthwise_nhwc_envelope(const KernelChoice&, const ConvProblem& p, MathMode) {
  namespace dn = depthwise_nhwc;
  if (p.transposed()) return Support::no("depthwise_nhwc: forward convolutions only");
  if (p.groups != p.in_channels || p.out_channels != p.in_channels)
    return Support::no("depthwise_nhwc: needs groups == in_channels == out_channels (depth multiplier 1)");
  const int vector = dn::vector_width(p.dtype);
  if (p.in_channels % vector != 0)
    return Support::no(fmt::format("depthwise_nhwc: channels must be a multiple of {} (16-byte vectors of {})", vector,
                                   to_string(p.dtype)));
  const dn::Params t = dn::make_params(p);
  if (t.slice_vectors == 0)
    return Support::no(
        fmt::format("depthwise_nhwc: {} taps: one vector's weights exceed 48 KB of shared memory", p.kernel_volume()));
  if (t.blocks() > 0x7fffffff) return Support::no("depthwise_nhwc: too many blocks for one launch");
  return Support::yes();
}

// "depthwise_nhwc/4x32x64": a tile of 4 output rows x 32 columns x 64 channels.
inline KernelDescription describe_depthwise_nhwc(const KernelChoice&, const ConvProblem& p, const LaunchDevice&) {
  namespace dn = depthwise_nhwc;
  const dn::Params t = dn::make_params(p);
  const int columns = t.tile_cols * dn::kRun;
  const std::string_view dtype = to_string(p.dtype);
  return {fmt::format("depthwise_nhwc/{}x{}x{}", t.tile_rows, columns, t.slice_channels()),
          {{"tile", fmt::format("{} output rows x {} columns x {} channels of one (image, depth) plane, {} threads",
                                t.tile_rows, columns, t.slice_channels(), dn::kThreads)},
           {"thread", fmt::format("{} outputs along the row x {} channels", dn::kRun, t.vector)},
           {"vector_width", fmt::format("{} {} elements (16 bytes)", t.vector, dtype)},
           {"loads",
            "a 16-byte input vector per output and tap (read-only path), the tap's weights read once for the "
            "thread's outputs; 16-byte streaming stores"},
           {"weights",
            fmt::format("{} channels x {} taps in shared memory, fp32", t.slice_channels(), t.p3.kernel_volume())},
           {"accumulation", "fp32"},
           {"shared_memory_bytes", std::to_string(t.smem_bytes())},
           {"blocks", std::to_string(t.blocks())},
           {"launches", "1"}}};
}

inline constexpr FamilyDescriptor kDepthwiseNhwcFamily{
    .family = Family::depthwise_nhwc,
    .summary = "depthwise in channels last, fp32/fp16/bf16, 16-byte vectors of channels",
    .dtypes = kAllDTypes,
    .layouts = layout_bit(Layout::nhwc),
    .computes_in = MathMode::fp32,
    .knobs = 0,
    .runs_forward_equivalent = false,  // the weights' rewrite is fp32 only (forward_weights_kernel.cuh)
    .envelope = depthwise_nhwc_envelope,
    .any_extent = false,
    .variants = no_more_variants,
    .describe = describe_depthwise_nhwc,
    .architecture_need = no_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
