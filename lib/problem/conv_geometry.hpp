#pragma once
// Index arithmetic shared by the CPU reference, the verifier and the CUDA kernels: which input
// element and tap feed an output element, and how flat indices map to coordinates.
// Every function is host/device and is tested on the CPU (tests/unit/test_conv_geometry.cpp).
#include <algorithm>
#include <cstdint>

#include "problem/conv_problem.hpp"

namespace kbench::geometry {

// Input coordinate read by output coordinate `out` through tap `k` of a forward convolution
// along dimension d; may fall in the padding (< 0 or >= input extent).
KBENCH_HD std::int64_t conv_input_coord(const ConvProblem& p, int d, std::int64_t out, std::int64_t k) {
  return out * p.stride[d] - p.pad_before[d] + k * p.dilation[d];
}

// Output coordinate reached by input coordinate `in` through tap `k` of a transposed convolution;
// may fall outside the (cropped) output.
KBENCH_HD std::int64_t transposed_output_coord(const ConvProblem& p, int d, std::int64_t in, std::int64_t k) {
  return in * p.stride[d] - p.pad_before[d] + k * p.dilation[d];
}

// For a transposed convolution: does tap k reach output coordinate `out` from a whole input
// coordinate? If so, *in receives it (which may still lie outside the input).
KBENCH_HD bool transposed_tap_source(const ConvProblem& p, int d, std::int64_t out, std::int64_t k, std::int64_t* in) {
  const std::int64_t num = out + p.pad_before[d] - k * p.dilation[d];
  if (num < 0 || num % p.stride[d] != 0) return false;
  *in = num / p.stride[d];
  return *in < p.input[d];
}

// Row-major coordinates of a flat element index of a [N, C, spatial...] tensor.
struct TensorCoord {
  std::int64_t n = 0;
  std::int64_t c = 0;
  Dims pos{{0, 0, 0}};
};

KBENCH_HD TensorCoord unflatten(std::int64_t flat, std::int64_t channels, const Dims& extent, int rank) {
  TensorCoord coord;
  for (int d = rank - 1; d >= 0; --d) {
    coord.pos[d] = flat % extent[d];
    flat /= extent[d];
  }
  coord.c = flat % channels;
  coord.n = flat / channels;
  return coord;
}

KBENCH_HD std::int64_t flatten(const TensorCoord& coord, std::int64_t channels, const Dims& extent, int rank) {
  std::int64_t flat = coord.n * channels + coord.c;
  for (int d = 0; d < rank; ++d) flat = flat * extent[d] + coord.pos[d];
  return flat;
}

// Flat index of weight element (dim0, dim1, taps...) in PyTorch's layout.
KBENCH_HD std::int64_t weight_index(const ConvProblem& p, std::int64_t dim0, std::int64_t dim1, const Dims& tap) {
  std::int64_t flat = dim0 * p.weight_dim1() + dim1;
  for (int d = 0; d < p.spatial_rank; ++d) flat = flat * p.kernel[d] + tap[d];
  return flat;
}

namespace detail {

// 128-bit intermediates: n*(n-1)/2*(a/m) overflows 64 bits for 2^31-tap kernels. A GCC/Clang extension.
__extension__ typedef unsigned __int128 uint128;

// sum_{j < n} floor((a*j + b) / m) in O(log) steps (the classic floor-sum reduction); all arguments >= 0, m > 0.
inline uint128 floor_sum(uint128 n, uint128 m, uint128 a, uint128 b) {
  uint128 total = 0;
  while (n != 0) {
    if (a >= m) {
      total += n * (n - 1) / 2 * (a / m);
      a %= m;
    }
    if (b >= m) {
      total += n * (b / m);
      b %= m;
    }
    const uint128 y = a * n + b;
    if (y < m) break;
    n = y / m;
    b = y % m;
    const uint128 t = m;
    m = a;
    a = t;
  }
  return total;
}

// #{(i, k) : 0 <= i < inputs, 0 <= k < taps, i*stride + k*dilation < x}, without looping over taps:
// a 2^31-tap kernel is a valid spec and must not take seconds to describe.
inline std::int64_t pairs_below(std::int64_t x, std::int64_t inputs, std::int64_t taps, std::int64_t stride,
                                std::int64_t dilation) {
  if (x <= 0) return 0;
  const auto ceil_pos = [](std::int64_t a, std::int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); };
  // Taps k < k_end reach some i (x - k*dil >= 1); for k < k_full every one of the inputs qualifies.
  const std::int64_t k_end = std::min(taps, ceil_pos(x, dilation));
  std::int64_t k_full = ceil_pos(x - (inputs - 1) * stride, dilation);
  k_full = k_full < 0 ? 0 : (k_full > k_end ? k_end : k_full);
  uint128 total = static_cast<uint128>(inputs) * static_cast<uint128>(k_full);
  // For k in [k_full, k_end): ceil((x - k*dil) / stride) inputs; with j = k_end - 1 - k that is
  // floor((dil*j + x - (k_end-1)*dil + stride - 1) / stride), a floor sum over j < k_end - k_full.
  if (k_end > k_full)
    total += floor_sum(static_cast<uint128>(k_end - k_full), static_cast<uint128>(stride),
                       static_cast<uint128>(dilation), static_cast<uint128>(x - (k_end - 1) * dilation + stride - 1));
  return static_cast<std::int64_t>(total);
}

}  // namespace detail

// Number of (input, tap) pairs along dimension d that land inside the output. For a forward
// convolution every tap of every output counts (padding included, as cuDNN and PyTorch compute them);
// for a transposed one only the taps whose target, i*stride - pad + k*dil, survives the cropping.
// Host only (metrics); closed form, so huge kernels cost nothing.
inline std::int64_t landed_pairs(const ConvProblem& p, int d) {
  if (!p.transposed()) return p.output_extent(d) * p.kernel[d];
  const std::int64_t out_extent = p.output_extent(d);
  if (out_extent <= 0) return 0;
  const auto below = [&](std::int64_t x) {
    return detail::pairs_below(x, p.input[d], p.kernel[d], p.stride[d], p.dilation[d]);
  };
  return below(p.pad_before[d] + out_extent) - below(p.pad_before[d]);
}

// Integer division rounding toward -infinity / +infinity, for b > 0 (C++ '/' truncates toward zero,
// which is wrong for the negative numerators that padding produces).
KBENCH_HD std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
KBENCH_HD std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

// The (output, input) coordinate pairs that one tap connects along one dimension, restricted to outputs in
// [begin, end): output first_out + j * out_step reads input first_in + j * in_step, for j in [0, count).
// Lets a loop over outputs skip padding and holes without testing every coordinate.
struct TapRun {
  std::int64_t first_out = 0;
  std::int64_t first_in = 0;
  std::int64_t count = 0;
  std::int64_t out_step = 1;
  std::int64_t in_step = 1;
};

// Forward convolution: the outputs in [begin, end) whose tap k reads a real input element (not padding).
// Consecutive outputs, inputs `stride` apart.
KBENCH_HD TapRun conv_tap_run(const ConvProblem& p, int d, std::int64_t k, std::int64_t begin, std::int64_t end) {
  const std::int64_t offset = k * p.dilation[d] - p.pad_before[d];  // input = out * stride + offset
  const std::int64_t lo = begin > ceil_div(-offset, p.stride[d]) ? begin : ceil_div(-offset, p.stride[d]);
  const std::int64_t last = floor_div(p.input[d] - 1 - offset, p.stride[d]);
  const std::int64_t hi = end < last + 1 ? end : last + 1;
  TapRun run;
  run.first_out = lo;
  run.first_in = lo * p.stride[d] + offset;
  run.count = hi > lo ? hi - lo : 0;
  run.out_step = 1;
  run.in_step = p.stride[d];
  return run;
}

// Transposed convolution: the outputs in [begin, end) that tap k reaches from an input element.
// Outputs `stride` apart, consecutive inputs; the same pairs transposed_tap_source finds one by one.
KBENCH_HD TapRun transposed_tap_run(const ConvProblem& p, int d, std::int64_t k, std::int64_t begin, std::int64_t end) {
  const std::int64_t offset = k * p.dilation[d] - p.pad_before[d];  // output = in * stride + offset
  const std::int64_t first = ceil_div(begin - offset, p.stride[d]);
  const std::int64_t lo = first > 0 ? first : 0;
  const std::int64_t last = floor_div(end - 1 - offset, p.stride[d]);
  const std::int64_t hi = p.input[d] < last + 1 ? p.input[d] : last + 1;
  TapRun run;
  run.first_in = lo;
  run.first_out = lo * p.stride[d] + offset;
  run.count = hi > lo ? hi - lo : 0;
  run.out_step = p.stride[d];
  run.in_step = 1;
  return run;
}

}  // namespace kbench::geometry
