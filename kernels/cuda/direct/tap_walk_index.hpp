#pragma once
// For one output coordinate along one spatial dimension: the taps k that feed it and the input
// coordinates i they read, as an arithmetic progression (k_first + j*k_step, i_first + j*i_step),
// j < count, with every i inside the input. The direct kernel walks these instead of testing every
// tap, so a transposed convolution never touches the taps that land elsewhere.
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

struct TapWalk {
  std::int64_t k_first = 0;
  std::int64_t k_step = 1;
  std::int64_t i_first = 0;
  std::int64_t i_step = 0;
  std::int64_t count = 0;
};

// Forward convolution: i = o*s - pb + k*dil must lie in [0, in_extent), k in [0, kernel).
KBENCH_HD TapWalk conv_tap_walk(const ConvProblem& p, int d, std::int64_t o) {
  const std::int64_t start = o * p.stride[d] - p.pad_before[d];  // i for k = 0
  const std::int64_t dil = p.dilation[d];
  std::int64_t k_begin = ceil_div(-start, dil);
  std::int64_t k_end = ceil_div(p.input[d] - start, dil);
  if (k_begin < 0) k_begin = 0;
  if (k_end > p.kernel[d]) k_end = p.kernel[d];
  TapWalk w;
  w.k_first = k_begin;
  w.k_step = 1;
  w.i_first = start + k_begin * dil;
  w.i_step = dil;
  w.count = k_end > k_begin ? k_end - k_begin : 0;
  return w;
}

// Transposed convolution: the taps of o's phase (phase_index.hpp) whose input q - shift lies in
// [0, in_extent). Along the progression i falls by dil/g per tap.
KBENCH_HD TapWalk transposed_tap_walk(const PhaseDim& pd, std::int64_t o) {
  TapWalk w;
  const std::int64_t ph = phase_of(pd, o);
  const std::int64_t taps = phase_tap_count(pd, ph);
  if (taps == 0) return w;
  const std::int64_t q = (o + pd.pad_before - ph) / pd.stride;  // exact, and >= 0 since o >= 0
  const std::int64_t i0 = q - phase_tap_shift(pd, ph, 0);       // input of tap j = 0
  const std::int64_t di = pd.dilation / pd.g;                   // input decrement per tap
  // i0 - j*di >= 0  <=>  j <= floor(i0 / di);   i0 - j*di < in  <=>  j >= floor((i0 - in) / di) + 1
  std::int64_t j_begin = floor_div(i0 - pd.in_extent, di) + 1;
  std::int64_t j_end = floor_div(i0, di) + 1;
  if (j_begin < 0) j_begin = 0;
  if (j_end > taps) j_end = taps;
  if (j_end <= j_begin) return w;
  w.k_first = phase_tap(pd, ph, j_begin);
  w.k_step = pd.period;
  w.i_first = i0 - j_begin * di;
  w.i_step = -di;
  w.count = j_end - j_begin;
  return w;
}

}  // namespace kbench::gpu::conv
