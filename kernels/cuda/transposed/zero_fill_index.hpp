#pragma once
// Which outputs of a transposed convolution receive no tap at all and are written as the bias (or
// zero) without computing anything, in whole contiguous spans.
//
// An output is computed (by the GEMM of its phase combination) when its coordinate has taps along
// every dimension. Of the rest:
//   - along the last dimension, untapped positions of a row whose other coordinates have taps are
//     written by the GEMM epilogue (GemmConvParams::tail / lead), next to the values it stores;
//   - everything else forms whole planes (dimension 0 untapped, or no tapped position along the last
//     dimension at all) and whole rows (dimension 1 untapped): the "zero fill" below, done in the
//     same launch as the GEMM (problem 77: 76% of the output as whole planes and rows, 12% as epilogue tails).
// Work is handed out by plane (batch, channel, coordinate along dimension 0).
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/common/variant_knobs.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

struct ZeroFillParams {
  std::int64_t planes = 0;  // batch * out_channels * out_extent[0]; 0 = nothing to fill
  std::int64_t out_channels = 1;
  std::int64_t out_extent[3] = {1, 1, 1};
  PhaseDim dim[3];
  bool last_dim_tapped = true;  // some coordinate along the last dimension has taps
};

// Where the zero fill runs (FillBlocks): cuda/common/variant_knobs.hpp.

// Fill-only blocks a phase GEMM of `tiles` column tiles gets after them for `planes` planes of zero
// fill: as many as the tiles (while there are planes for them). Every block of the launch fills
// planes block, block + blocks, ..., so the GEMM blocks fill half as much as they would alone
// (their stores overlap their first loads) and the other half runs in blocks that start after the
// last GEMM block: blocks start roughly in index order, and a launch of equal GEMM blocks would
// end on a partial wave of lone, latency-bound blocks (problem 77: 2,048 tiles over 660 slots, 3.1
// waves) where short fill blocks now keep the other slots and the memory busy.
KBENCH_HD std::int64_t trailing_fill_blocks(std::int64_t tiles, std::int64_t planes) {
  const std::int64_t spare = planes - tiles;  // planes left once every GEMM block has one
  return spare < 0 ? 0 : (spare < tiles ? spare : tiles);
}

// p3: rank 3, transposed.
inline ZeroFillParams make_zero_fill_params(const ConvProblem& p3) {
  ZeroFillParams z;
  z.out_channels = p3.out_channels;
  for (int i = 0; i < 3; ++i) {
    z.out_extent[i] = p3.output_extent(i);
    z.dim[i] = make_phase_dim(p3, i);
  }
  z.last_dim_tapped = first_tapped_position(z.dim[2]) < z.out_extent[2];
  z.planes = p3.batch * p3.out_channels * z.out_extent[0];
  return z;
}

struct PlaneCoord {
  std::int64_t channel = 0;
  std::int64_t coord0 = 0;  // along dimension 0
  std::int64_t offset = 0;  // output index of the plane's first element
};

KBENCH_HD PlaneCoord plane_coord(const ZeroFillParams& z, std::int64_t plane) {
  PlaneCoord c;
  c.coord0 = plane % z.out_extent[0];
  c.channel = (plane / z.out_extent[0]) % z.out_channels;
  c.offset = plane * z.out_extent[1] * z.out_extent[2];
  return c;
}

// True when the whole plane is untapped.
KBENCH_HD bool plane_untapped(const ZeroFillParams& z, std::int64_t coord0) {
  return !z.last_dim_tapped || !position_has_taps(z.dim[0], coord0);
}

// In a plane that is not wholly untapped: the untapped rows are those of the untapped phases of
// dimension 1, enumerated phase by phase (no per-row test). rows_of_phase gives their range.
KBENCH_HD bool row_phase_untapped(const ZeroFillParams& z, std::int64_t ph1) { return !phase_has_taps(z.dim[1], ph1); }

KBENCH_HD PhaseRange rows_of_phase(const ZeroFillParams& z, std::int64_t ph1) { return phase_positions(z.dim[1], ph1); }

// Whether anything is left for the fill to write: an untapped plane, or an untapped row phase with
// rows in it (stride-1 transposed convolutions tap every output).
inline bool zero_fill_has_work(const ZeroFillParams& z) {
  if (z.planes == 0) return false;
  for (std::int64_t c0 = 0; c0 < z.out_extent[0]; ++c0)
    if (plane_untapped(z, c0)) return true;
  for (std::int64_t ph = 0; ph < z.dim[1].stride; ++ph)
    if (row_phase_untapped(z, ph) && rows_of_phase(z, ph).count > 0) return true;
  return false;
}

KBENCH_HD std::int64_t row_of_phase(const ZeroFillParams& z, std::int64_t ph1, std::int64_t q) {
  return phase_position(z.dim[1], ph1, q);
}

}  // namespace kbench::gpu::conv
