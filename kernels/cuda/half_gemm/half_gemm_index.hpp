#pragma once
// The index arithmetic of the fp16/bf16 tensor-core implicit GEMM (half_gemm_kernel.cuh), host/device
// and unit-tested on the CPU (tests/unit/test_cuda_index_half_gemm.cpp, test_cuda_index_half_phase.cpp).
//
// Per group: C[m][j] = sum_k A[m][k] B[k][j] with
//   m = a GEMM row: an image, then a position on the row grid (the NHWC output's row order),
//   j = an output channel of the group,
//   k = tap * (C_in/g) + c: taps outer, the group's input channels inner, so that under NHWC, where
//       channels are contiguous, 8 consecutive k are 16 contiguous bytes of one input position and
//       of one weight row (KRSC): one 16-byte copy each.
// A is gathered from the input (im2col, never materialised), B read from the weights, C written to
// the output through memory strides, so the same arithmetic serves NCHW (element gathers) and NHWC.
//
// The row grid and the taps are affine per dimension, so one descriptor serves a forward convolution
// (rows = every output position, taps = the kernel: make_half_gemm_params) and one phase of a
// transposed convolution (rows = the outputs of the phase, taps = the kernel taps landing on it, read
// from weights packed per phase: half_phase_index.hpp).
#include <cstdint>

#include "core/host_device.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv::half_gemm {

// Block tile: 64 output positions x 64 output channels x 32 reduction elements, 4 warps of 32 x 32
// (2 m16 x 4 n8 products per k16 step), 3 cp.async stages.
inline constexpr int kTileM = 64;
inline constexpr int kTileN = 64;
inline constexpr int kTileK = 32;
inline constexpr int kThreads = 128;
inline constexpr int kWarpM = 32;
inline constexpr int kWarpN = 32;
inline constexpr int kStages = 3;
// A shared row of 32 halves padded by 8 (80 bytes = 20 words): the 8 rows x 4 words a fragment load
// reads fall in 32 distinct banks (20 g + t mod 32 distinct for g < 8, t < 4), and rows stay 16-byte
// aligned for the copies.
inline constexpr int kRowHalves = kTileK + 8;
inline constexpr int kStageHalves = (kTileM + kTileN) * kRowHalves;
inline constexpr int kSmemBytes = kStages * kStageHalves * 2;  // 30,720: static-size, under 48 KB
// Elements per 16-byte copy.
inline constexpr int kVector = 8;

struct HalfGemmParams {
  ConvProblem p3;  // rank 3 (as_rank3): extents, groups and dtype of the whole problem
  Dims out{{1, 1, 1}};  // the output's extents
  // Per dimension d: the row grid's extent; row coordinate r reads input coordinate
  // in_origin + r * in_step + t * tap_step through tap t < taps, and writes output coordinate
  // out_origin + r * out_step.
  std::int64_t row_extent[3] = {1, 1, 1};
  std::int64_t in_origin[3] = {0, 0, 0};
  std::int64_t in_step[3] = {1, 1, 1};
  std::int64_t tap_step[3] = {1, 1, 1};
  std::int64_t taps[3] = {1, 1, 1};
  std::int64_t out_origin[3] = {0, 0, 0};
  std::int64_t out_step[3] = {1, 1, 1};
  std::int64_t rows = 0;    // M: batch x row volume
  std::int64_t cols = 0;    // N: C_out / g
  std::int64_t depth = 0;   // K: taps x C_in / g
  std::int64_t chunks = 0;  // ceil(K / kTileK)
  std::int64_t cin_pg = 0, cout_pg = 0, kvol = 0, row_volume = 0, out_volume = 0;
  // Memory strides, in elements: input image / channel / spatial position; weights per group /
  // output channel (row of B^T) / input channel / tap; output image / channel / spatial position.
  std::int64_t x_image = 0, x_channel = 0, x_position = 0;
  std::int64_t w_group = 0, w_row = 0, w_channel = 0, w_tap = 0;
  std::int64_t y_image = 0, y_channel = 0, y_position = 0;
  std::int64_t row_tiles = 0, col_tiles = 0;
  // Input channels contiguous (NHWC) and weights with contiguous input channels (forward NHWC, or
  // packed), C_in/g a multiple of 8: every 8-aligned run of k is 16 contiguous, 16-byte aligned bytes
  // of A and of B (cp.async 16). Otherwise elements are gathered one by one.
  bool vector_loads = false;
};

// What a descriptor needs once its row grid, taps and weight strides are set: the GEMM's sizes and
// the activations' strides.
inline void finish_half_gemm_desc(HalfGemmParams& d) {
  const ConvProblem& p = d.p3;
  d.cin_pg = p.in_channels_per_group();
  d.cout_pg = p.out_channels_per_group();
  d.kvol = d.taps[0] * d.taps[1] * d.taps[2];
  d.row_volume = d.row_extent[0] * d.row_extent[1] * d.row_extent[2];
  d.out_volume = d.out[0] * d.out[1] * d.out[2];
  d.rows = p.batch * d.row_volume;
  d.cols = d.cout_pg;
  d.depth = d.kvol * d.cin_pg;
  d.chunks = (d.depth + kTileK - 1) / kTileK;
  const std::int64_t in_volume = p.input_spatial_volume();
  const bool last = p.layout == Layout::nhwc;
  d.x_image = p.in_channels * in_volume;
  d.x_channel = last ? 1 : in_volume;
  d.x_position = last ? p.in_channels : 1;
  d.y_image = p.out_channels * d.out_volume;
  d.y_channel = last ? 1 : d.out_volume;
  d.y_position = last ? p.out_channels : 1;
  d.row_tiles = (d.rows + kTileM - 1) / kTileM;
  d.col_tiles = (d.cols + kTileN - 1) / kTileN;
  d.vector_loads = last && d.w_channel == 1 && d.cin_pg % kVector == 0;
}

// A forward convolution: rows are the output positions, taps the kernel, B the weights as stored.
inline HalfGemmParams make_half_gemm_params(const ConvProblem& problem) {
  HalfGemmParams d;
  d.p3 = as_rank3(problem);
  const ConvProblem& p = d.p3;
  d.out = p.output();
  for (int dim = 0; dim < 3; ++dim) {
    d.row_extent[dim] = d.out[dim];
    d.in_origin[dim] = -p.pad_before[dim];
    d.in_step[dim] = p.stride[dim];
    d.tap_step[dim] = p.dilation[dim];
    d.taps[dim] = p.kernel[dim];
  }
  const bool last = p.layout == Layout::nhwc;
  const std::int64_t kvol = p.kernel_volume(), cin_pg = p.in_channels_per_group();
  d.w_row = cin_pg * kvol;
  d.w_group = p.out_channels_per_group() * d.w_row;
  d.w_channel = last ? 1 : kvol;
  d.w_tap = last ? cin_pg : 1;
  finish_half_gemm_desc(d);
  return d;
}

// GEMM row m: its image, its output position (flat) and the input coordinate its tap 0 reads.
struct RowOrigin {
  std::int64_t image = 0;
  std::int64_t position = 0;
  std::int64_t base[3] = {0, 0, 0};
};

KBENCH_HD RowOrigin row_origin(const HalfGemmParams& d, std::int64_t m) {
  RowOrigin r;
  r.image = m / d.row_volume;
  const std::int64_t s = m % d.row_volume;
  const std::int64_t coord[3] = {s / (d.row_extent[2] * d.row_extent[1]), s / d.row_extent[2] % d.row_extent[1],
                                 s % d.row_extent[2]};
  for (int dim = 0; dim < 3; ++dim) {
    r.base[dim] = d.in_origin[dim] + coord[dim] * d.in_step[dim];
    r.position = r.position * d.out[dim] + d.out_origin[dim] + coord[dim] * d.out_step[dim];
  }
  return r;
}

// The GEMM rows a thread loads A for (rows row0 + row(r) of the block's tile, r < kRows), each
// decoded once for the whole reduction; a row past M is marked not ok (and decoded as row 0).
template <int kRows, class Row>
KBENCH_HD void decode_rows(const HalfGemmParams& d, std::int64_t row0, Row row, RowOrigin (&origin)[kRows],
                           bool (&row_ok)[kRows]) {
  for (int r = 0; r < kRows; ++r) {
    const std::int64_t m = row0 + row(r);
    row_ok[r] = m < d.rows;
    origin[r] = row_origin(d, row_ok[r] ? m : 0);
  }
}

// Reduction index k: its tap (flat and per dimension) and input channel within the group.
struct KIndex {
  std::int64_t tap = 0;
  std::int64_t t[3] = {0, 0, 0};
  std::int64_t channel = 0;
};

KBENCH_HD KIndex k_index(const HalfGemmParams& d, std::int64_t k) {
  KIndex ki;
  ki.tap = k / d.cin_pg;
  ki.channel = k % d.cin_pg;
  ki.t[2] = ki.tap % d.taps[2];
  ki.t[1] = ki.tap / d.taps[2] % d.taps[1];
  ki.t[0] = ki.tap / (d.taps[2] * d.taps[1]);
  return ki;
}

// Offset of A[m][k] of group g in the input, or -1 where the tap reads padding (or k >= K).
KBENCH_HD std::int64_t input_offset(const HalfGemmParams& d, const RowOrigin& r, std::int64_t g, std::int64_t k) {
  if (k >= d.depth) return -1;
  const KIndex ki = k_index(d, k);
  std::int64_t position = 0;
  for (int dim = 0; dim < 3; ++dim) {
    const std::int64_t i = r.base[dim] + ki.t[dim] * d.tap_step[dim];
    if (i < 0 || i >= d.p3.input[dim]) return -1;
    position = position * d.p3.input[dim] + i;
  }
  return r.image * d.x_image + (g * d.cin_pg + ki.channel) * d.x_channel + position * d.x_position;
}

// Offset of B[k][j] of group g in the weights, or -1 for k >= K.
KBENCH_HD std::int64_t weight_offset(const HalfGemmParams& d, std::int64_t g, std::int64_t j, std::int64_t k) {
  if (k >= d.depth) return -1;
  const KIndex ki = k_index(d, k);
  return g * d.w_group + j * d.w_row + ki.channel * d.w_channel + ki.tap * d.w_tap;
}

// Offset of C[m][j] of group g in the output; also the bias index is g * cout_pg + j.
KBENCH_HD std::int64_t output_offset(const HalfGemmParams& d, const RowOrigin& r, std::int64_t g, std::int64_t j) {
  return r.image * d.y_image + (g * d.cout_pg + j) * d.y_channel + r.position * d.y_position;
}

// --- Loads: which pieces of a chunk each thread copies ------------------------------------------
// Vector loads: a 64 x 32 tile is 64 rows x 4 segments of 8; thread t copies row t / 4 + 32 r,
// segment t % 4, for r = 0, 1 (the same rows for the whole reduction: decoded once).
// Element gathers: thread t loads row t % 64, column 2 r + t / 64 for r = 0..15 (adjacent threads on
// adjacent rows: adjacent output positions, contiguous in an NCHW input).
inline constexpr int kVectorPieces = kTileM * (kTileK / kVector) / kThreads;  // 2
inline constexpr int kElementPieces = kTileM * kTileK / kThreads;             // 16

KBENCH_HD int vector_row(int thread, int r) { return thread / 4 + 32 * r; }
KBENCH_HD int vector_segment(int thread) { return thread % 4; }
KBENCH_HD int element_row(int thread) { return thread % kTileM; }
KBENCH_HD int element_col(int thread, int r) { return 2 * r + thread / kTileM; }

// --- mma.m16n8k16 fragments (PTX ISA), gid = lane / 4, tig = lane % 4 --------------------------
struct FragCoord {
  int row = 0;
  int col = 0;
};

// A (16 x 16, row major): element i of 8 (register i / 2, its low half first).
KBENCH_HD FragCoord a_fragment(int lane, int i) {
  return {lane / 4 + 8 * ((i / 2) % 2), 2 * (lane % 4) + (i % 2) + 8 * (i / 4)};
}
// B (16 x 8, column major): element i of 4; row = k, col = n.
KBENCH_HD FragCoord b_fragment(int lane, int i) { return {2 * (lane % 4) + (i % 2) + 8 * (i / 2), lane / 4}; }
// C/D (16 x 8): element i of 4.
KBENCH_HD FragCoord c_fragment(int lane, int i) { return {lane / 4 + 8 * (i / 2), 2 * (lane % 4) + (i % 2)}; }

}  // namespace kbench::gpu::conv::half_gemm
