#pragma once
// Where a logical element of a problem's tensor lives in memory under its layout. Logical indices are
// PyTorch's row-major [dim0, dim1, spatial...] (activations [N, C, spatial...], weights [dim0, dim1, k...]);
// channels last stores the same tensor as [dim0, spatial..., dim1]. Bias is one axis, the same in both.
// Host/device: the CPU reference, --dump, the GPU fills and read-back and the kernels share it.
#include <cstdint>

#include "problem/conv_problem.hpp"

namespace kbench {

enum class Operand { input, weight, bias, output };

// Elements of an operand's tensor (the bias's: 0 without one).
KBENCH_HD std::int64_t operand_elements(const ConvProblem& p, Operand operand) {
  switch (operand) {
    case Operand::input: return p.input_elements();
    case Operand::weight: return p.weight_elements();
    case Operand::bias: return p.bias_elements();
    case Operand::output: return p.output_elements();
  }
  return 0;
}

// The two axes a layout permutes: dim 1 (channels) and the spatial volume behind it.
struct ChannelAxes {
  std::int64_t channels = 1;
  std::int64_t spatial = 1;
};

KBENCH_HD ChannelAxes channel_axes(const ConvProblem& p, Operand operand) {
  switch (operand) {
    case Operand::input: return {p.in_channels, p.input_spatial_volume()};
    case Operand::weight: return {p.weight_dim1(), p.kernel_volume()};
    case Operand::output: return {p.out_channels, p.output_spatial_volume()};
    case Operand::bias: break;
  }
  return {1, 1};
}

// [d0, C, S] -> [d0, S, C]: the offset in memory of logical index `logical`.
KBENCH_HD std::int64_t channels_last_offset(std::int64_t logical, const ChannelAxes& axes) {
  const std::int64_t per_d0 = axes.channels * axes.spatial;
  const std::int64_t d0 = logical / per_d0;
  const std::int64_t c = logical % per_d0 / axes.spatial;
  const std::int64_t s = logical % axes.spatial;
  return (d0 * axes.spatial + s) * axes.channels + c;
}

// The inverse: the logical index of the element stored at `offset` in a channels-last tensor.
KBENCH_HD std::int64_t channels_last_logical(std::int64_t offset, const ChannelAxes& axes) {
  const std::int64_t per_d0 = axes.channels * axes.spatial;
  const std::int64_t d0 = offset / per_d0;
  const std::int64_t s = offset % per_d0 / axes.channels;
  const std::int64_t c = offset % axes.channels;
  return (d0 * axes.channels + c) * axes.spatial + s;
}

KBENCH_HD std::int64_t memory_offset(const ConvProblem& p, Operand operand, std::int64_t logical) {
  if (p.layout == Layout::nchw || operand == Operand::bias) return logical;
  return channels_last_offset(logical, channel_axes(p, operand));
}

KBENCH_HD std::int64_t logical_index(const ConvProblem& p, Operand operand, std::int64_t offset) {
  if (p.layout == Layout::nchw || operand == Operand::bias) return offset;
  return channels_last_logical(offset, channel_axes(p, operand));
}

}  // namespace kbench
