#pragma once
// A transposed convolution of fp16/bf16 tensors as tensor-core GEMMs, one per phase combination
// (transposed/phase_index.hpp has the decomposition), host/device and unit-tested on the CPU
// (tests/unit/test_cuda_index_half_phase.cpp).
//
// Within a phase combination (ph0, ph1, ph2) whose every dimension has taps, output coordinate
// o = q * s + ph - pb receives exactly the phase's taps k = k0 + j * period, j < count, each reading
// input q - shift0 - j * (dil / g): a stride-1 correlation over q with a negative tap step. That is a
// HalfGemmParams with rows over the phase's q, taps over its j. B is the phase's taps of the weights,
// packed before the GEMMs into [group][output channel][j][input channel]: input channels contiguous,
// as the GEMM's K wants them (the stored transposed weights have output channels innermost under
// NHWC and taps under NCHW). Outputs whose phase has no taps along some dimension receive nothing: the
// bias fill writes them (the bias, or zero).
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "cuda/half_gemm/half_gemm_index.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_geometry.hpp"
#include "problem/memory_layout.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv::half_gemm {

// One tapped phase combination: its GEMM and where its B lives in the packed weights.
struct HalfPhaseGemm {
  std::int64_t phase[3] = {0, 0, 0};
  std::int64_t first_tap[3] = {0, 0, 0};  // the kernel tap of the phase's tap 0, per dimension
  std::int64_t period[3] = {1, 1, 1};     // kernel taps between the phase's consecutive taps
  std::int64_t packed_offset = 0;         // elements before its B in the packed weights
  HalfGemmParams desc;
};

// The GEMM of phase combination `phase` of p3 (rank 3, transposed), with B at `packed_offset` of the
// packed weights; its rows are empty when some dimension has no taps or no output in that phase.
inline HalfPhaseGemm make_half_phase_gemm(const ConvProblem& p3, const std::int64_t (&phase)[3],
                                          std::int64_t packed_offset) {
  HalfPhaseGemm g;
  g.packed_offset = packed_offset;
  HalfGemmParams& d = g.desc;
  d.p3 = p3;
  d.out = p3.output();
  for (int dim = 0; dim < 3; ++dim) {
    const PhaseDim pd = make_phase_dim(p3, dim);
    const std::int64_t ph = phase[dim];
    const PhaseRange range = phase_positions(pd, ph);
    const std::int64_t count = phase_tap_count(pd, ph);
    g.phase[dim] = ph;
    g.first_tap[dim] = count > 0 ? first_tap_of_phase(pd, ph) : 0;
    g.period[dim] = pd.period;
    d.row_extent[dim] = count > 0 ? range.count : 0;
    d.in_origin[dim] = count > 0 ? range.q_begin - phase_tap_shift(pd, ph, 0) : 0;
    d.in_step[dim] = 1;
    d.tap_step[dim] = -(pd.dilation / pd.g);
    d.taps[dim] = count;
    d.out_origin[dim] = phase_position(pd, ph, range.q_begin);
    d.out_step[dim] = pd.stride;
  }
  // Packed B: [group][output channel][tap][input channel].
  const std::int64_t cin_pg = p3.in_channels_per_group();
  d.w_channel = 1;
  d.w_tap = cin_pg;
  d.w_row = cin_pg * d.taps[0] * d.taps[1] * d.taps[2];
  d.w_group = p3.out_channels_per_group() * d.w_row;
  finish_half_gemm_desc(d);
  return g;
}

// Elements of a phase GEMM's packed B.
KBENCH_HD std::int64_t packed_elements(const HalfPhaseGemm& g) { return g.desc.p3.groups * g.desc.w_group; }

// Phase combinations with taps and outputs along every dimension: the GEMMs make_half_phase_gemms
// returns, counted without building them.
inline std::int64_t tapped_phase_count(const ConvProblem& p3) {
  std::int64_t count = 1;
  for (int dim = 0; dim < 3; ++dim) {
    const PhaseDim pd = make_phase_dim(p3, dim);
    std::int64_t tapped = 0;
    for (std::int64_t ph = 0; ph < pd.stride; ++ph)
      tapped += phase_has_taps(pd, ph) && phase_positions(pd, ph).count > 0 ? 1 : 0;
    count *= tapped;
  }
  return count;
}

// The tapped phase combinations that have outputs, in phase order, their B packed one after another.
inline std::vector<HalfPhaseGemm> make_half_phase_gemms(const ConvProblem& problem) {
  const ConvProblem p3 = as_rank3(problem);
  std::vector<HalfPhaseGemm> gemms;
  std::int64_t packed = 0;
  std::int64_t phase[3] = {0, 0, 0};
  for (phase[0] = 0; phase[0] < p3.stride[0]; ++phase[0])
    for (phase[1] = 0; phase[1] < p3.stride[1]; ++phase[1])
      for (phase[2] = 0; phase[2] < p3.stride[2]; ++phase[2]) {
        HalfPhaseGemm g = make_half_phase_gemm(p3, phase, packed);
        if (g.desc.rows == 0 || g.desc.depth == 0) continue;
        packed += packed_elements(g);
        gemms.push_back(g);
      }
  return gemms;
}

// Offset in the stored weights of element e of a phase GEMM's packed B ([group][n][tap][c]).
KBENCH_HD std::int64_t packed_weight_source(const HalfPhaseGemm& g, std::int64_t e) {
  const HalfGemmParams& d = g.desc;
  const std::int64_t c = e % d.cin_pg;
  const std::int64_t tap = e / d.cin_pg % d.kvol;
  const std::int64_t n = e / d.w_row % d.cout_pg;
  const std::int64_t group = e / d.w_group;
  const std::int64_t j[3] = {tap / (d.taps[1] * d.taps[2]), tap / d.taps[2] % d.taps[1], tap % d.taps[2]};
  Dims kernel_tap{{0, 0, 0}};
  for (int dim = 0; dim < 3; ++dim) kernel_tap[dim] = g.first_tap[dim] + j[dim] * g.period[dim];
  // Transposed weights, logically [C_in][C_out/g][k...].
  const std::int64_t logical = geometry::weight_index(d.p3, group * d.cin_pg + c, n, kernel_tap);
  return memory_offset(d.p3, Operand::weight, logical);
}

// --- The bias fill: outputs on a phase without taps ----------------------------------------------
// The fill walks the output as lines: runs contiguous in memory along the last spatial dimension,
// out[2] positions x C_out channels under NHWC (a line per (image, o0, o1)), out[2] positions of one
// channel under NCHW (a line per (image, channel, o0, o1)). A line's first two coordinates are
// decoded once, with 64-bit divisions; within it an element needs only its last coordinate's phase.

struct BiasFillParams {
  ConvProblem p3;
  Dims out{{1, 1, 1}};
  std::int64_t out_volume = 0;
  std::int64_t elements = 0;               // of the whole output
  std::int64_t line_length = 0;            // elements of a line
  std::int64_t lines = 0;                  // elements / line_length
  std::uint64_t untapped[3] = {0, 0, 0};  // per dimension, bit ph set when phase ph has no taps
  bool has_work = false;                  // some output lies on an untapped phase
};

// p3 rank 3, transposed, every stride at most 64 (the family's envelope).
inline BiasFillParams make_bias_fill_params(const ConvProblem& problem) {
  BiasFillParams f;
  f.p3 = as_rank3(problem);
  f.out = f.p3.output();
  f.out_volume = f.out[0] * f.out[1] * f.out[2];
  f.elements = f.p3.output_elements();
  f.line_length = f.out[2] * (f.p3.layout == Layout::nhwc ? f.p3.out_channels : 1);
  f.lines = f.line_length > 0 ? f.elements / f.line_length : 0;
  for (int dim = 0; dim < 3; ++dim) {
    const PhaseDim pd = make_phase_dim(f.p3, dim);
    f.untapped[dim] = untapped_phase_mask(pd);
    for (std::int64_t o = 0; o < pd.out_extent && o < pd.stride; ++o)
      f.has_work = f.has_work || !position_has_taps(pd, o);
  }
  return f;
}

KBENCH_HD bool coordinate_untapped(const BiasFillParams& f, int dim, std::int64_t o) {
  return (f.untapped[dim] >> floor_mod(o + f.p3.pad_before[dim], f.p3.stride[dim])) & 1u;
}

// Whether output position `position` (flat over the output's extents) lies on an untapped phase.
KBENCH_HD bool position_untapped(const BiasFillParams& f, std::int64_t position) {
  const std::int64_t o[3] = {position / (f.out[1] * f.out[2]), position / f.out[2] % f.out[1], position % f.out[2]};
  return coordinate_untapped(f, 0, o[0]) || coordinate_untapped(f, 1, o[1]) || coordinate_untapped(f, 2, o[2]);
}

// A line as the fill sees it: whether its first two coordinates make every element of it untapped,
// and its channel (NCHW; unused under NHWC, where the channel runs inside the line).
struct FillLine {
  bool whole = false;
  std::int64_t channel = 0;
};

KBENCH_HD FillLine fill_line(const BiasFillParams& f, std::int64_t line) {
  const std::int64_t o1 = line % f.out[1];
  const std::int64_t o0 = line / f.out[1] % f.out[0];
  FillLine l;
  l.whole = coordinate_untapped(f, 0, o0) || coordinate_untapped(f, 1, o1);
  if (f.p3.layout == Layout::nchw) l.channel = line / (f.out[1] * f.out[0]) % f.p3.out_channels;
  return l;
}

// What the fill does with element e of a line: write it (its position lies on an untapped phase) and
// which channel's bias it gets.
struct FillTarget {
  bool write = false;
  std::int64_t channel = 0;
};

KBENCH_HD FillTarget fill_target(const BiasFillParams& f, const FillLine& l, std::int64_t e) {
  const bool last = f.p3.layout == Layout::nhwc;
  const std::int64_t o2 = last ? e / f.p3.out_channels : e;
  return {l.whole || coordinate_untapped(f, 2, o2), last ? e % f.p3.out_channels : l.channel};
}

// Elements per 16-byte store of the fill: 8 channels of one position under NHWC when C_out is a
// multiple of 8 (the entry point checks the pointers' alignment).
inline constexpr int kFillVector = 8;
KBENCH_HD bool fill_vectors(const BiasFillParams& f) {
  return f.p3.layout == Layout::nhwc && f.p3.out_channels % kFillVector == 0;
}

}  // namespace kbench::gpu::conv::half_gemm
