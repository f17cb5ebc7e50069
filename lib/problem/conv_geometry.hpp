#pragma once
// Index arithmetic shared by the CPU reference, the verifier and the CUDA kernels: which input
// element and tap feed an output element, and how flat indices map to coordinates.
// Every function is host/device and is tested on the CPU (tests/unit/test_conv_geometry.cpp).
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
KBENCH_HD bool transposed_tap_source(const ConvProblem& p, int d, std::int64_t out, std::int64_t k,
                                     std::int64_t* in) {
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

// Number of (input, tap) pairs along dimension d that land inside the output. For a forward
// convolution every tap of every output counts (padding included, as cuDNN and PyTorch compute them);
// for a transposed one only the taps whose target survives the cropping.
KBENCH_HD std::int64_t landed_pairs(const ConvProblem& p, int d) {
  if (!p.transposed()) return p.output_extent(d) * p.kernel[d];
  const std::int64_t out_extent = p.output_extent(d);
  std::int64_t pairs = 0;
  for (std::int64_t k = 0; k < p.kernel[d]; ++k) {
    // i*s - pb + k*dil in [0, out): i in [ceil((pb - k*dil)/s), ceil((out + pb - k*dil)/s)) ∩ [0, in)
    const std::int64_t base = p.pad_before[d] - k * p.dilation[d];
    std::int64_t lo = base <= 0 ? 0 : (base + p.stride[d] - 1) / p.stride[d];
    const std::int64_t hi_num = out_extent + base;
    std::int64_t hi = hi_num <= 0 ? 0 : (hi_num + p.stride[d] - 1) / p.stride[d];
    if (hi > p.input[d]) hi = p.input[d];
    if (hi > lo) pairs += hi - lo;
  }
  return pairs;
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
KBENCH_HD TapRun transposed_tap_run(const ConvProblem& p, int d, std::int64_t k, std::int64_t begin,
                                    std::int64_t end) {
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
