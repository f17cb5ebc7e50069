#pragma once
// The `wgrad_depthwise` family: the backward_weights pass (grad_weight, and grad_bias with a bias) of
// depthwise convolutions and transposed convolutions (groups == C_in == C_out), 1-D to 3-D, any
// stride, dilation and padding, up to 49 taps (wgrad_depthwise_index.hpp). One block per channel and
// slice of the reduction, every tap of the channel accumulated per thread in fp32 FFMA; the slices'
// partials summed in slice order by a second kernel: deterministic, no atomics. fp32 NCHW; under math
// tf32 it runs the same FFMA kernel (math_used fp32). The default for the problems it takes, where the
// generic wgrad_gemm_ffma's tiles would be M = 1 row of padding.
#include <string>

#include <fmt/format.h>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/wgrad/wgrad_depthwise_index.hpp"

namespace kbench::gpu::conv {

inline Support wgrad_depthwise_envelope(const KernelChoice&, const ConvProblem& p, MathMode) {
  namespace wd = wgrad_depthwise;
  if (p.groups != p.in_channels || p.out_channels != p.in_channels)
    return Support::no("wgrad_depthwise: needs groups == in_channels == out_channels (depthwise, multiplier 1)");
  if (p.kernel_volume() > wd::kMaxTaps)
    return Support::no(fmt::format("wgrad_depthwise: {} taps per channel, over the {} (7x7) a thread accumulates",
                                   p.kernel_volume(), wd::kMaxTaps));
  if (p.in_channels > wd::kMaxGridX) return Support::no("wgrad_depthwise: too many channels for one launch");
  const wd::WgradDepthwiseParams d = wd::make_wgrad_depthwise_params(p, 0);
  if (!wd::fits(d))
    return Support::no(fmt::format(
        "wgrad_depthwise: one line's gathered window takes {} bytes of shared memory, over {} (stride or dilation too "
        "long)",
        wd::smem_bytes(d), wd::kMaxSmemBytes));
  return Support::yes();
}

// "wgrad_depthwise/16x64" (lines x positions a step) or ".../16x64/sliced", on a device of `device.sms`
// SMs (slices unknown for 0).
inline KernelDescription describe_wgrad_depthwise(const KernelChoice&, const ConvProblem& p,
                                                  const LaunchDevice& device) {
  namespace wd = wgrad_depthwise;
  const wd::WgradDepthwiseParams d = wd::make_wgrad_depthwise_params(p, device.sms);
  const bool sliced = d.slices > 1;
  const int launches = 1 + (sliced ? 1 : 0) + (d.g.bias_channels > 0 ? 1 : 0);
  std::string launch_list = sliced ? "slices, sum of slices" : "taps per channel";
  if (d.g.bias_channels > 0) launch_list += ", grad_bias";
  KernelDescription out{
      fmt::format("wgrad_depthwise/{}x{}{}", d.lines, wd::kSegment, sliced ? "/sliced" : ""),
      {{"pass", "backward_weights"},
       {"reduction", fmt::format("{} channels x {} taps, each over batch x {} positions ({})", wd::channels(d),
                                 wd::taps(d), d.g.row_volume, wgrad::k_total(d.g))},
       {"operands", d.g.rows_are_x ? "rows: input x; gathered: grad_output (transposed: x and dy exchanged)"
                                   : "rows: grad_output; gathered: input x"},
       {"step", fmt::format("{} lines x {} positions, window {}x{}x{} in shared memory; {} steps per channel", d.lines,
                            wd::kSegment, d.g.kernel[0], d.span_h, d.span_w, wd::steps(d))},
       {"tensor_instruction", "none (FFMA)"}}};
  if (device.sms <= 0)
    out.properties.emplace_back("slices", "chosen from the device's SMs (unknown here)");
  else if (sliced)
    out.properties.emplace_back(
        "slices", fmt::format("{} slices of {} steps (partials in a {}-byte workspace, summed in slice order: "
                              "deterministic)",
                              d.slices, d.steps_per_slice, wd::workspace_elements(d) * 4));
  else
    out.properties.emplace_back("slices", "none (the channels fill the device)");
  if (d.g.bias_channels > 0)
    out.properties.emplace_back("grad_bias",
                                fmt::format("{} channels, one block each, summed by a fixed tree", d.g.bias_channels));
  out.properties.emplace_back("blocks", std::to_string(wd::channels(d) * d.slices));
  out.properties.emplace_back("shared_memory_bytes", std::to_string(wd::smem_bytes(d)));
  out.properties.emplace_back("launches", fmt::format("{} ({})", launches, launch_list));
  return out;
}

inline constexpr FamilyDescriptor kWgradDepthwiseFamily{
    .family = Family::wgrad_depthwise,
    .summary = "backward_weights of depthwise problems, a block per channel and slice, fixed order",
    .passes = pass_bit(Pass::backward_weights),
    .dtypes = dtype_bit(DType::fp32),
    .layouts = layout_bit(Layout::nchw),
    .computes_in = MathMode::fp32,
    .knobs = 0,
    .runs_forward_equivalent = false,  // a transposed problem's is the conv's with x and dy exchanged
    .envelope = wgrad_depthwise_envelope,
    .any_extent = false,
    .variants = no_more_variants,
    .describe = describe_wgrad_depthwise,
    .architecture_need = no_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
