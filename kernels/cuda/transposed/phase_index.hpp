#pragma once
// Phase decomposition of a transposed convolution, one spatial dimension at a time.
//
// Along a dimension with stride s, dilation dil and padding pb, tap k of input i lands on output
//   o = i*s - pb + k*dil.
// So o receives tap k only when k*dil ≡ o + pb (mod s). Call ph = (o + pb) mod s the phase of o.
// With g = gcd(s, dil), a phase receives taps only when g divides it, and then exactly the taps
// k ≡ k0(ph) (mod s/g): the phase's taps are a fixed arithmetic progression. Writing
// o = q*s + ph - pb, tap k reads input i = q - (k*dil - ph)/s: within one phase the transposed
// convolution is an ordinary stride-1 correlation over q with a fixed tap list. Phases whose tap
// list is empty ("untapped") receive nothing: those outputs are the bias (or zero) and are written
// without being computed (problem 77: stride 2, dilation 2, so every even coordinate is untapped).
//
// Everything is host/device and tested on the CPU against conv_geometry (tests/unit/test_cuda_index_phase.cpp).
#include <cstdint>

#include "core/host_device.hpp"
#include "problem/conv_geometry.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

using geometry::ceil_div;
using geometry::floor_div;
// Modulo for b > 0 that is never negative (C++'s % rounds toward zero).
KBENCH_HD std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

KBENCH_HD std::int64_t gcd(std::int64_t a, std::int64_t b) {
  while (b != 0) {
    const std::int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// x in [0, m) with a*x ≡ 1 (mod m), for gcd(a, m) = 1 and m >= 1 (m = 1 gives 0). Extended Euclid.
KBENCH_HD std::int64_t mod_inverse(std::int64_t a, std::int64_t m) {
  if (m == 1) return 0;
  std::int64_t old_r = floor_mod(a, m), r = m, old_x = 1, x = 0;
  while (r != 0) {
    const std::int64_t q = old_r / r;
    std::int64_t t = old_r - q * r;
    old_r = r;
    r = t;
    t = old_x - q * x;
    old_x = x;
    x = t;
  }
  return floor_mod(old_x, m);
}

// One spatial dimension of a transposed convolution with what its phases need precomputed.
struct PhaseDim {
  std::int64_t stride = 1;
  std::int64_t dilation = 1;
  std::int64_t pad_before = 0;
  std::int64_t kernel = 1;
  std::int64_t in_extent = 1;
  std::int64_t out_extent = 1;
  std::int64_t g = 1;        // gcd(stride, dilation)
  std::int64_t period = 1;   // stride / g: consecutive taps of one phase are this far apart
  std::int64_t inverse = 0;  // (dilation / g)^-1 mod period
};

KBENCH_HD PhaseDim make_phase_dim(const ConvProblem& p, int d) {
  PhaseDim pd;
  pd.stride = p.stride[d];
  pd.dilation = p.dilation[d];
  pd.pad_before = p.pad_before[d];
  pd.kernel = p.kernel[d];
  pd.in_extent = p.input[d];
  pd.out_extent = p.output_extent(d);
  pd.g = gcd(pd.stride, pd.dilation);
  pd.period = pd.stride / pd.g;
  pd.inverse = mod_inverse(pd.dilation / pd.g, pd.period);
  return pd;
}

// Phase of output coordinate o: (o + pad_before) mod stride.
KBENCH_HD std::int64_t phase_of(const PhaseDim& pd, std::int64_t o) { return floor_mod(o + pd.pad_before, pd.stride); }

// Smallest tap k >= 0 (not limited to the kernel) with k*dil ≡ ph (mod s); -1 when g does not divide ph.
KBENCH_HD std::int64_t first_tap_of_phase(const PhaseDim& pd, std::int64_t ph) {
  if (ph % pd.g != 0) return -1;
  return ((ph / pd.g) * pd.inverse) % pd.period;
}

// Number of kernel taps landing on phase ph.
KBENCH_HD std::int64_t phase_tap_count(const PhaseDim& pd, std::int64_t ph) {
  const std::int64_t k0 = first_tap_of_phase(pd, ph);
  if (k0 < 0 || k0 >= pd.kernel) return 0;
  return (pd.kernel - 1 - k0) / pd.period + 1;
}

KBENCH_HD bool phase_has_taps(const PhaseDim& pd, std::int64_t ph) { return phase_tap_count(pd, ph) > 0; }
KBENCH_HD bool position_has_taps(const PhaseDim& pd, std::int64_t o) { return phase_has_taps(pd, phase_of(pd, o)); }

// The j-th tap of phase ph (j < phase_tap_count).
KBENCH_HD std::int64_t phase_tap(const PhaseDim& pd, std::int64_t ph, std::int64_t j) {
  return first_tap_of_phase(pd, ph) + j * pd.period;
}

// How far below q the j-th tap of phase ph reads: i = q - shift. Never negative, because
// k*dil ≡ ph (mod s) with 0 <= ph < s implies k*dil >= ph. Grows by dil/g per tap.
KBENCH_HD std::int64_t phase_tap_shift(const PhaseDim& pd, std::int64_t ph, std::int64_t j) {
  return (phase_tap(pd, ph, j) * pd.dilation - ph) / pd.stride;
}

// Output coordinate of q in phase ph.
KBENCH_HD std::int64_t phase_position(const PhaseDim& pd, std::int64_t ph, std::int64_t q) {
  return q * pd.stride + ph - pd.pad_before;
}

// The q whose positions q*s + ph - pb lie in [0, out_extent): [q_begin, q_begin + count).
struct PhaseRange {
  std::int64_t q_begin = 0;
  std::int64_t count = 0;
};

KBENCH_HD PhaseRange phase_positions(const PhaseDim& pd, std::int64_t ph) {
  PhaseRange r;
  r.q_begin = ceil_div(pd.pad_before - ph, pd.stride);
  const std::int64_t q_end = ceil_div(pd.out_extent + pd.pad_before - ph, pd.stride);
  r.count = q_end > r.q_begin ? q_end - r.q_begin : 0;
  return r;
}

// Distance from a position of phase ph to the next position whose phase has taps (1..stride).
// The untapped positions in between are written by the output at ph (see igemm_index.hpp).
KBENCH_HD std::int64_t gap_to_next_tapped(const PhaseDim& pd, std::int64_t ph) {
  for (std::int64_t r = 1; r < pd.stride; ++r)
    if (phase_has_taps(pd, (ph + r) % pd.stride)) return r;
  return pd.stride;  // phase ph itself recurs after one stride
}

// Smallest output coordinate whose phase has taps, or out_extent when no coordinate has any.
KBENCH_HD std::int64_t first_tapped_position(const PhaseDim& pd) {
  for (std::int64_t o = 0; o < pd.out_extent && o < pd.stride; ++o)
    if (position_has_taps(pd, o)) return o;
  return pd.out_extent;
}

// Bit ph set when phase ph has no taps; only for stride <= 64 (the transposed_phase envelope).
KBENCH_HD std::uint64_t untapped_phase_mask(const PhaseDim& pd) {
  std::uint64_t mask = 0;
  for (std::int64_t ph = 0; ph < pd.stride && ph < 64; ++ph)
    if (!phase_has_taps(pd, ph)) mask |= std::uint64_t{1} << ph;
  return mask;
}

}  // namespace kbench::gpu::conv
