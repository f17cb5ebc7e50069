#pragma once
// The backward_weights pass as one implicit GEMM per group (wgrad_gemm_ffma), host/device and free of
// CUDA headers, so tests/unit checks it against brute force (test_cuda_index_wgrad.cpp).
//
// grad_weight[g M + m, c, tap] = sum over k = (n, pos) of rows[n, g M + m, pos] x gathered[n, g C + c, at(pos, tap)]
// where, for a conv, rows are grad_output (M = C_out/g, positions over the output) and the gathered
// operand is the input x (C = C_in/g), read at at(pos, tap) = pos x stride - pad + tap x dilation, zero
// outside; for a conv_transpose, whose forward is a conv's backward-data, the same with x and
// grad_output exchanged (rows x with M = C_in/g over the input's positions, gathered dy with
// C = C_out/g): its weight [C_in, C_out/g, k...] is indexed like a conv's [C_out, C_in/g, k...].
// GEMM per group: M rows, N = C x taps columns, K = batch x row positions (problem 76: 11 million).
//
// K is split over `splits` blocks per tile (split-K), each writing its partial to a workspace; a
// second kernel sums the partials in split order, so the result does not depend on which block
// finishes first (no atomics). grad_bias sums grad_output over batch and positions per channel.
//
// Tensors of any dtype and layout: the operands are read through memory strides and widened to fp32,
// the products summed in fp32. fp32 NCHW unsplit, the GEMM writes grad_weight itself; otherwise every
// split's fp32 partial goes to the workspace (flat in logical order) and the sum kernel rounds the
// total once to the dtype and stores it where the layout puts it.
#include <algorithm>
#include <cstdint>

#include "core/host_device.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv::wgrad {

// One 64 x 64 tile of grad_weight per block, 256 threads of 4 x 4 outputs, K in chunks of 16.
inline constexpr int kTileM = 64;
inline constexpr int kTileN = 64;
inline constexpr int kTileK = 16;
inline constexpr int kThreads = 256;
inline constexpr int kThreadRows = 4;  // outputs per thread along M and along N
inline constexpr int kSmemBytes = kTileK * (kTileM + kTileN) * static_cast<int>(sizeof(float));
// A split shorter than this spends more on writing and re-reading its partial tile than on its products.
inline constexpr std::int64_t kMinKPerSplit = 4096;
// Launch limit on gridDim.z, which holds groups x splits.
inline constexpr std::int64_t kMaxGridZ = 65535;

struct WgradParams {
  std::int64_t batch = 1, groups = 1;
  std::int64_t m = 1;     // rows per group: grad_weight's dim0 per group
  std::int64_t c = 1;     // channels per group of the gathered operand: grad_weight's dim1
  std::int64_t taps = 1;  // kernel volume
  std::int64_t kernel[3] = {1, 1, 1};
  std::int64_t row_extent[3] = {1, 1, 1};  // spatial extents of the rows' operand
  std::int64_t gathered_extent[3] = {1, 1, 1};
  std::int64_t stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1}, pad[3] = {0, 0, 0};
  std::int64_t row_volume = 1, gathered_volume = 1;
  bool rows_are_x = false;  // conv_transpose: the rows' operand is x, the gathered one grad_output
  std::int64_t splits = 1, k_per_split = 1;
  // grad_bias: grad_output's channels and positions (0 channels without bias).
  std::int64_t bias_channels = 0, dy_volume = 1;
  DType dtype = DType::fp32;
  // Memory strides, in elements: the rows' and the gathered operand's image / channel / position,
  // grad_output's (for grad_bias), grad_weight's row (dim 0) / channel (dim 1) / tap.
  std::int64_t row_image = 1, row_channel = 1, row_position = 1;
  std::int64_t gathered_image = 1, gathered_channel = 1, gathered_position_step = 1;
  std::int64_t dy_image = 1, dy_channel = 1, dy_position = 1;
  std::int64_t w_row = 1, w_channel = 1, w_tap = 1;
  bool channels_last = false;
};

// The GEMM writes fp32 NCHW grad_weight itself when unsplit; everything else goes through the
// workspace and the sum kernel.
KBENCH_HD bool stores_through_workspace(const WgradParams& d) {
  return d.splits > 1 || d.dtype != DType::fp32 || d.channels_last;
}

KBENCH_HD std::int64_t k_total(const WgradParams& d) { return d.batch * d.row_volume; }
KBENCH_HD std::int64_t columns(const WgradParams& d) { return d.c * d.taps; }
KBENCH_HD std::int64_t weight_elements(const WgradParams& d) { return d.groups * d.m * columns(d); }
KBENCH_HD std::int64_t tiles_m(const WgradParams& d) { return (d.m + kTileM - 1) / kTileM; }
KBENCH_HD std::int64_t tiles_n(const WgradParams& d) { return (columns(d) + kTileN - 1) / kTileN; }
KBENCH_HD std::int64_t tiles(const WgradParams& d) { return tiles_m(d) * tiles_n(d) * d.groups; }

// Memory offsets of a row element and a gathered element; grad_weight's flat (logical) index of
// (g, m, col) and where that element lives in memory.
KBENCH_HD std::int64_t row_offset(const WgradParams& d, std::int64_t g, std::int64_t n, std::int64_t m,
                                  std::int64_t pos) {
  return n * d.row_image + (g * d.m + m) * d.row_channel + pos * d.row_position;
}
KBENCH_HD std::int64_t gathered_offset(const WgradParams& d, std::int64_t g, std::int64_t n, std::int64_t c,
                                       std::int64_t gathered_pos) {
  return n * d.gathered_image + (g * d.c + c) * d.gathered_channel + gathered_pos * d.gathered_position_step;
}
KBENCH_HD std::int64_t weight_index(const WgradParams& d, std::int64_t g, std::int64_t m, std::int64_t col) {
  return (g * d.m + m) * columns(d) + col;
}
KBENCH_HD std::int64_t weight_offset(const WgradParams& d, std::int64_t index) {
  const std::int64_t col = index % columns(d);
  return index / columns(d) * d.w_row + col / d.taps * d.w_channel + col % d.taps * d.w_tap;
}
// grad_output's element (n, channel, pos), for grad_bias.
KBENCH_HD std::int64_t dy_offset(const WgradParams& d, std::int64_t n, std::int64_t channel, std::int64_t pos) {
  return n * d.dy_image + channel * d.dy_channel + pos * d.dy_position;
}

// The gathered operand's position that row position `pos` meets at kernel tap `tap`, or -1 in the padding.
KBENCH_HD std::int64_t gathered_position(const WgradParams& d, std::int64_t pos, std::int64_t tap) {
  std::int64_t at = 0;
  std::int64_t rest_pos = pos, rest_tap = tap;
  std::int64_t pos_div = d.row_volume, tap_div = d.taps;
  for (int i = 0; i < 3; ++i) {
    pos_div /= d.row_extent[i];
    tap_div /= d.kernel[i];
    const std::int64_t p = rest_pos / pos_div, t = rest_tap / tap_div;
    rest_pos %= pos_div;
    rest_tap %= tap_div;
    const std::int64_t q = p * d.stride[i] - d.pad[i] + t * d.dilation[i];
    if (q < 0 || q >= d.gathered_extent[i]) return -1;
    at = at * d.gathered_extent[i] + q;
  }
  return at;
}

// The reduction range [begin, end) of split `s`.
struct KRange {
  std::int64_t begin, end;
};
KBENCH_HD KRange split_range(const WgradParams& d, std::int64_t s) {
  const std::int64_t begin = s * d.k_per_split;
  const std::int64_t end = begin + d.k_per_split < k_total(d) ? begin + d.k_per_split : k_total(d);
  return {begin, end};
}

// Splits that fill about two waves of `sms` SMs with the tiles, each at least kMinKPerSplit long and
// gridDim.z in bounds; 1 where the SMs are unknown (0).
inline std::int64_t choose_splits(const WgradParams& d, int sms) {
  if (sms <= 0) return 1;
  const std::int64_t wanted = (2 * std::int64_t{sms} + tiles(d) - 1) / tiles(d);
  const std::int64_t longest = std::max<std::int64_t>(1, k_total(d) / kMinKPerSplit);
  return std::max<std::int64_t>(1, std::min({wanted, longest, kMaxGridZ / d.groups}));
}

inline WgradParams with_splits(WgradParams d, std::int64_t splits) {
  d.k_per_split = (k_total(d) + splits - 1) / splits;
  d.splits = (k_total(d) + d.k_per_split - 1) / d.k_per_split;  // no empty split
  return d;
}

// The GEMMs of backward_weights problem `p`, split for a device of `sms` SMs (unsplit for 0).
inline WgradParams make_wgrad_params(const ConvProblem& problem, int sms) {
  const ConvProblem p = as_rank3(problem);
  WgradParams d;
  d.batch = p.batch;
  d.groups = p.groups;
  d.rows_are_x = p.transposed();
  d.m = (d.rows_are_x ? p.in_channels : p.out_channels) / p.groups;
  d.c = (d.rows_are_x ? p.out_channels : p.in_channels) / p.groups;
  d.taps = p.kernel_volume();
  for (int i = 0; i < 3; ++i) {
    d.kernel[i] = p.kernel[i];
    d.row_extent[i] = d.rows_are_x ? p.input[i] : p.output_extent(i);
    d.gathered_extent[i] = d.rows_are_x ? p.output_extent(i) : p.input[i];
    d.stride[i] = p.stride[i];
    d.dilation[i] = p.dilation[i];
    d.pad[i] = p.pad_before[i];
  }
  d.row_volume = d.row_extent[0] * d.row_extent[1] * d.row_extent[2];
  d.gathered_volume = d.gathered_extent[0] * d.gathered_extent[1] * d.gathered_extent[2];
  d.bias_channels = p.bias ? p.out_channels : 0;
  d.dy_volume = p.output_spatial_volume();
  d.dtype = p.dtype;
  d.channels_last = p.layout == Layout::nhwc;
  // Activations [N, C, spatial] or [N, spatial, C]; weights [dim0, dim1, taps] or [dim0, taps, dim1].
  const auto strides = [&](std::int64_t channels, std::int64_t volume, std::int64_t& image, std::int64_t& channel,
                           std::int64_t& position) {
    image = channels * volume;
    channel = d.channels_last ? 1 : volume;
    position = d.channels_last ? channels : 1;
  };
  const std::int64_t row_channels = d.groups * d.m, gathered_channels = d.groups * d.c;
  strides(row_channels, d.row_volume, d.row_image, d.row_channel, d.row_position);
  strides(gathered_channels, d.gathered_volume, d.gathered_image, d.gathered_channel, d.gathered_position_step);
  strides(p.out_channels, d.dy_volume, d.dy_image, d.dy_channel, d.dy_position);
  d.w_row = d.c * d.taps;
  d.w_channel = d.channels_last ? 1 : d.taps;
  d.w_tap = d.channels_last ? d.c : 1;
  return with_splits(d, choose_splits(d, sms));
}

// Workspace the partials take (fp32 elements); 0 where the GEMM writes grad_weight itself.
inline std::int64_t workspace_elements(const WgradParams& d) {
  return stores_through_workspace(d) ? d.splits * weight_elements(d) : 0;
}

}  // namespace kbench::gpu::conv::wgrad
