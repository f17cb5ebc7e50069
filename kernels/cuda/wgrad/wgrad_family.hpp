#pragma once
// The `wgrad_gemm_ffma` family: the backward_weights pass (grad_weight, and grad_bias with a bias) of
// convolutions and transposed convolutions, any rank and groups, as one implicit GEMM per group in
// fp32 FFMA (wgrad_index.hpp), its long reduction split over blocks where the tiles alone would leave
// the device idle, the splits summed in a fixed order by a second kernel: deterministic, no atomics.
// fp32, fp16 and bf16 tensors, NCHW and NHWC (widened on load, fp32 sums, one rounding); under math
// tf32 it runs the same FFMA kernel (math_used fp32).
#include <string>

#include <fmt/format.h>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/wgrad/wgrad_index.hpp"

namespace kbench::gpu::conv {

inline Support wgrad_gemm_envelope(const KernelChoice&, const ConvProblem& p, MathMode) {
  const wgrad::WgradParams d = wgrad::make_wgrad_params(p, 0);
  if (p.groups > wgrad::kMaxGridZ || wgrad::tiles_m(d) > wgrad::kMaxGridZ)
    return Support::no("wgrad_gemm_ffma: over 65,535 groups or row tiles for one launch");
  if (p.bias && p.out_channels > 0x7fffffff) return Support::no("wgrad_gemm_ffma: too many bias channels");
  if (wgrad::tiles_n(d) > 0x7fffffff) return Support::no("wgrad_gemm_ffma: too many column tiles for one launch");
  return Support::yes();
}

// "wgrad_gemm_ffma/64x64" or ".../64x64/split_k", on a device of `device.sms` SMs (splits unknown for 0).
inline KernelDescription describe_wgrad_gemm(const KernelChoice&, const ConvProblem& p, const LaunchDevice& device) {
  namespace wg = wgrad;
  const wg::WgradParams d = wg::make_wgrad_params(p, device.sms);
  const bool split = d.splits > 1;
  const bool stores = wg::stores_through_workspace(d);
  const int launches = 1 + (stores ? 1 : 0) + (d.bias_channels > 0 ? 1 : 0);
  std::string launch_list = split ? "GEMM splits, sum of splits" : stores ? "GEMM, store in the dtype and layout" : "GEMM";
  if (d.bias_channels > 0) launch_list += ", grad_bias";
  KernelDescription out{
      fmt::format("wgrad_gemm_ffma/{}x{}{}", wg::kTileM, wg::kTileN, split ? "/split_k" : ""),
      {{"pass", "backward_weights"},
       {"gemm", fmt::format("M {} ({}) x N {} ({} channels x {} taps) x K {} (batch x {} positions), {} group(s)", d.m,
                            d.rows_are_x ? "input channels per group" : "output channels per group", wg::columns(d),
                            d.c, d.taps, wg::k_total(d), d.rows_are_x ? "input" : "output", d.groups)},
       {"operands", d.rows_are_x ? "rows: input x; gathered: grad_output (transposed: x and dy exchanged)"
                                 : "rows: grad_output; gathered: input x"},
       {"tile", fmt::format("{}x{}x{}, {} threads of {}x{}", wg::kTileM, wg::kTileN, wg::kTileK, wg::kThreads,
                            wg::kThreadRows, wg::kThreadRows)},
       {"tensor_instruction", "none (FFMA)"}}};
  if (device.sms <= 0)
    out.properties.emplace_back("split_k", "chosen from the device's SMs (unknown here)");
  else if (split)
    out.properties.emplace_back(
        "split_k",
        fmt::format("{} splits of {} (partials in a {}-byte workspace, summed in split order: deterministic)", d.splits,
                    d.k_per_split, wg::workspace_elements(d) * 4));
  else
    out.properties.emplace_back("split_k", "none (the tiles fill the device)");
  if (d.bias_channels > 0)
    out.properties.emplace_back("grad_bias",
                                fmt::format("{} channels, one block each, summed by a fixed tree", d.bias_channels));
  out.properties.emplace_back("blocks", std::to_string(wg::tiles(d) * d.splits));
  out.properties.emplace_back("shared_memory_bytes", std::to_string(wg::kSmemBytes));
  out.properties.emplace_back("launches", fmt::format("{} ({})", launches, launch_list));
  return out;
}

inline constexpr FamilyDescriptor kWgradGemmFfmaFamily{
    .family = Family::wgrad_gemm_ffma,
    .summary = "backward_weights by a split-K FFMA implicit GEMM, summed in a fixed order",
    .passes = pass_bit(Pass::backward_weights),
    .dtypes = kAllDTypes,
    .layouts = kAllLayouts,
    .computes_in = MathMode::fp32,
    .knobs = 0,
    .runs_forward_equivalent = false,  // a transposed problem's is the conv's with x and dy exchanged
    .envelope = wgrad_gemm_envelope,
    .any_extent = false,
    .variants = no_more_variants,
    .describe = describe_wgrad_gemm,
    .architecture_need = no_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
