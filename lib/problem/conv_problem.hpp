#pragma once
// The convolution being benchmarked, independent of where it came from (YAML, CLI, tests) and of
// which backend runs it. Plain data: it is copied to the GPU as a kernel argument unchanged.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/types.hpp"

namespace kbench {

inline constexpr int kMaxSpatialRank = 3;

// Per-spatial-dimension values; entries past the problem's rank are unused (kept at their neutral value).
struct Dims {
  std::int64_t v[kMaxSpatialRank] = {1, 1, 1};
  KBENCH_HD std::int64_t& operator[](int i) { return v[i]; }
  KBENCH_HD std::int64_t operator[](int i) const { return v[i]; }
  friend bool operator==(const Dims&, const Dims&) = default;
};

// Tensors follow PyTorch: input [N, C_in, spatial...], output [N, C_out, spatial...], weight
// [C_out, C_in/groups, k...] for conv and [C_in, C_out/groups, k...] for conv_transpose, bias [C_out].
// Indices are always of that logical (NCHW-order) form, whatever the memory layout: seeded values, the
// reference and read-back are indexed by it, so one problem in two layouts holds the same values.
// `layout` says how a backend stores them (problem/memory_layout.hpp); channels last puts dim 1 of
// each tensor last ([N, spatial..., C], weights [dim0, k..., dim1], cuDNN's NHWC and KRSC).
//
// `pass` chooses which computation of that convolution runs (problem/conv_pass.hpp): the geometry above
// always describes the forward convolution, as autograd's backward functions take it.
struct ConvProblem {
  OpKind op = OpKind::conv;
  Pass pass = Pass::forward;
  DType dtype = DType::fp32;
  Layout layout = Layout::nchw;
  int spatial_rank = 2;  // 1, 2 or 3
  std::int64_t batch = 1;
  std::int64_t in_channels = 1;
  std::int64_t out_channels = 1;
  std::int64_t groups = 1;
  Dims input;  // spatial sizes of the input
  Dims kernel;
  Dims stride;
  Dims dilation;
  Dims pad_before{{0, 0, 0}};
  Dims pad_after{{0, 0, 0}};
  Dims output_padding{{0, 0, 0}};  // conv_transpose only
  bool bias = false;

  friend bool operator==(const ConvProblem&, const ConvProblem&) = default;

  KBENCH_HD bool transposed() const { return op == OpKind::conv_transpose; }
  KBENCH_HD std::int64_t in_channels_per_group() const { return in_channels / groups; }
  KBENCH_HD std::int64_t out_channels_per_group() const { return out_channels / groups; }

  // PyTorch's output-size formulas; may be <= 0 for an invalid problem (validation rejects those).
  KBENCH_HD std::int64_t output_extent(int d) const {
    if (transposed())
      return (input[d] - 1) * stride[d] - pad_before[d] - pad_after[d] + dilation[d] * (kernel[d] - 1) +
             output_padding[d] + 1;
    const std::int64_t span = dilation[d] * (kernel[d] - 1) + 1;
    const std::int64_t padded = input[d] + pad_before[d] + pad_after[d];
    return padded < span ? 0 : (padded - span) / stride[d] + 1;
  }

  KBENCH_HD Dims output() const {
    Dims out;
    for (int d = 0; d < spatial_rank; ++d) out[d] = output_extent(d);
    return out;
  }

  KBENCH_HD std::int64_t input_spatial_volume() const { return volume(input); }
  KBENCH_HD std::int64_t kernel_volume() const { return volume(kernel); }
  KBENCH_HD std::int64_t output_spatial_volume() const { return volume(output()); }

  KBENCH_HD std::int64_t input_elements() const { return batch * in_channels * input_spatial_volume(); }
  KBENCH_HD std::int64_t output_elements() const { return batch * out_channels * output_spatial_volume(); }
  // Weight dim 1 is "channels per group" of the side the kernel reduces over in PyTorch's layout.
  KBENCH_HD std::int64_t weight_dim0() const { return transposed() ? in_channels : out_channels; }
  KBENCH_HD std::int64_t weight_dim1() const {
    return transposed() ? out_channels_per_group() : in_channels_per_group();
  }
  KBENCH_HD std::int64_t weight_elements() const { return weight_dim0() * weight_dim1() * kernel_volume(); }
  KBENCH_HD std::int64_t bias_elements() const { return bias ? out_channels : 0; }

 private:
  KBENCH_HD std::int64_t volume(const Dims& dims) const {
    std::int64_t n = 1;
    for (int d = 0; d < spatial_rank; ++d) n *= dims[d];
    return n;
  }
};

}  // namespace kbench
