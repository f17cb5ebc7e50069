#pragma once
// A transposed convolution of stride 1 is a forward convolution: the same input, the kernel flipped
// along every spatial axis, its two channel axes swapped within each group, and the padding mirrored.
// Per dimension, the transposed convolution sends input i through tap k to output o = i - pb + k dil,
// so output o reads i = o + pb - k dil; the forward convolution reads o - pb' + k' dil, which is the
// same input for k' = K - 1 - k when pb' = (K - 1) dil - pb. At the far end the output is
// output_padding longer, so pa' = (K - 1) dil - pa + output_padding. Where a padding crops more than
// (K - 1) dil, pb' or pa' would be negative: no forward problem expresses that crop, and the problem
// stays on the transposed kernels.
//
// The cuda backend runs a stride-1 transposed problem on the forward kernels this way (depthwise2d,
// the forward GEMMs with their input_patch order, resident A and wgmma, direct_tiled's unrolled
// instances: none of which the phase GEMMs or direct_tiled's transposed instances have), after one
// launch that writes the forward weights (forward_weights_kernel.cuh). Host/device: that kernel and the CPU
// tests share the index map below.
#include <cstdint>
#include <optional>

#include "core/host_device.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

// The forward convolution a transposed problem equals, when its strides are all 1 and no padding
// crops past the full correlation; nullopt otherwise (and for forward problems).
inline std::optional<ConvProblem> forward_equivalent(const ConvProblem& p) {
  if (!p.transposed()) return std::nullopt;
  ConvProblem f = p;
  f.op = OpKind::conv;
  for (int d = 0; d < p.spatial_rank; ++d) {
    if (p.stride[d] != 1) return std::nullopt;
    const std::int64_t reach = (p.kernel[d] - 1) * p.dilation[d];
    f.pad_before[d] = reach - p.pad_before[d];
    f.pad_after[d] = reach - p.pad_after[d] + p.output_padding[d];
    f.output_padding[d] = 0;
    if (f.pad_before[d] < 0 || f.pad_after[d] < 0) return std::nullopt;
  }
  return f;
}

// Where forward weight element `i` ([C_out, C_in/g, k...] of the forward problem `f`) comes from in
// the transposed weights ([C_in, C_out/g, k...]). Flipping every spatial axis of a row-major kernel
// reverses its flat tap index: tap t reads tap taps - 1 - t.
KBENCH_HD std::int64_t transposed_weight_source(const ConvProblem& f, std::int64_t i) {
  const std::int64_t taps = f.kernel_volume();
  const std::int64_t cin_g = f.in_channels_per_group(), cout_g = f.out_channels_per_group();
  const std::int64_t tap = i % taps;
  const std::int64_t cig = i / taps % cin_g;
  const std::int64_t out_channel = i / taps / cin_g;
  const std::int64_t group = out_channel / cout_g, cog = out_channel % cout_g;
  const std::int64_t in_channel = group * cin_g + cig;
  return (in_channel * cout_g + cog) * taps + (taps - 1 - tap);
}

}  // namespace kbench::gpu::conv
