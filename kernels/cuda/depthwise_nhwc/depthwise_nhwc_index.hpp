#pragma once
// The index arithmetic of the channels-last depthwise kernel (depthwise_nhwc_kernel.cuh), host/device
// and unit-tested on the CPU against brute force (tests/unit/test_cuda_index_depthwise_nhwc.cpp).
// Design: docs/kernels/depthwise_nhwc.md.
//
// Tensors, rank 3 after as_rank3: input [N][D][H][W][C] and output [N][OD][OH][OW][C]
// (channels last), weights [C][KD][KH][KW] (a depthwise weight's dim 1 is 1, so both layouts store
// it alike). A thread owns one 16-byte vector of channels (8 fp16/bf16 or 4 fp32) at a run of kRun
// consecutive output columns of one output row. A block owns a slice of up to kMaxSliceVectors
// vectors (128 bytes of a position's channels) over a tile of output rows x columns of one
// (image, output depth) plane, with the slice's weights in shared memory as fp32.
#include <cstdint>

#include "core/host_device.hpp"
#include "core/types.hpp"
#include "problem/conv_problem.hpp"
#include "problem/rank3.hpp"

namespace kbench::gpu::conv::depthwise_nhwc {

inline constexpr int kThreads = 256;
inline constexpr int kMinBlocks = 2;  // per SM (__launch_bounds__)
inline constexpr int kVectorBytes = 16;
inline constexpr int kRun = 4;                            // output columns per thread
inline constexpr int kMaxSliceVectors = 8;                // a block's channel vectors: one 128-byte line per position
inline constexpr int kColumnRuns = 8;                     // thread runs across a tile with rows to spare (32 columns)
inline constexpr std::int64_t kMaxSmemBytes = 48 * 1024;  // the slice's weights, under the default limit

// Elements per 16-byte vector.
KBENCH_HD constexpr int vector_width(DType t) { return kVectorBytes / (t == DType::fp32 ? 4 : 2); }

struct Params {
  ConvProblem p3;  // rank 3 (as_rank3)
  Dims out{{1, 1, 1}};
  int vector = 0;                    // elements per vector
  std::int64_t channel_vectors = 0;  // C / vector
  int slice_vectors = 0;             // vectors per slice (the last may hold fewer); 0: the weights do not fit
  int tile_rows = 0;                 // output rows per tile
  int tile_cols = 0;                 // thread runs per tile row (kRun columns each)
  std::int64_t slices = 0, col_tiles = 0, row_tiles = 0;

  KBENCH_HD int slice_channels() const { return slice_vectors * vector; }
  KBENCH_HD std::int64_t blocks() const { return slices * col_tiles * row_tiles * out[0] * p3.batch; }
  KBENCH_HD std::int64_t smem_bytes() const {
    return std::int64_t{slice_channels()} * p3.kernel_volume() * std::int64_t{sizeof(float)};
  }
};

inline Params make_params(const ConvProblem& problem) {
  Params t;
  t.p3 = as_rank3(problem);
  const ConvProblem& p = t.p3;
  t.out = p.output();
  t.vector = vector_width(p.dtype);
  t.channel_vectors = p.in_channels / t.vector;
  // Narrower slices for long kernels, so the slice's weights stay within 48 KB.
  const std::int64_t fit = kMaxSmemBytes / (p.kernel_volume() * t.vector * std::int64_t{sizeof(float)});
  std::int64_t vectors = t.channel_vectors < kMaxSliceVectors ? t.channel_vectors : kMaxSliceVectors;
  vectors = vectors < fit ? vectors : fit;
  t.slice_vectors = static_cast<int>(vectors);
  if (t.slice_vectors == 0) return t;
  // The threads left per channel vector cover rows first (input rows shared through L1), kColumnRuns
  // runs across, all on one row where the output has too few rows.
  const int runs = kThreads / t.slice_vectors;
  const std::int64_t rows = runs / kColumnRuns > 1 ? runs / kColumnRuns : 1;
  t.tile_rows = static_cast<int>(rows < t.out[1] ? rows : t.out[1]);
  t.tile_cols = runs / t.tile_rows;
  t.slices = (t.channel_vectors + t.slice_vectors - 1) / t.slice_vectors;
  const std::int64_t tile_width = std::int64_t{t.tile_cols} * kRun;
  t.col_tiles = (t.out[2] + tile_width - 1) / tile_width;
  t.row_tiles = (t.out[1] + t.tile_rows - 1) / t.tile_rows;
  return t;
}

// A block's slice and tile. Blocks run slices fastest, then columns, rows, depth and images, so
// blocks resident together read neighbouring inputs (halos from L2).
struct BlockOrigin {
  std::int64_t image = 0, depth = 0;  // output depth
  std::int64_t row0 = 0, col0 = 0;    // the tile's first output row and column
  std::int64_t vector0 = 0;           // the slice's first channel vector
  int vectors = 0;                    // vectors in this slice
};

KBENCH_HD BlockOrigin block_origin(const Params& t, std::int64_t block) {
  // 32-bit division (the envelope keeps the grid under 2^31 blocks): 64-bit division is a long
  // subroutine on the GPU.
  const auto slices = static_cast<std::uint32_t>(t.slices);
  const auto col_tiles = static_cast<std::uint32_t>(t.col_tiles);
  const auto row_tiles = static_cast<std::uint32_t>(t.row_tiles);
  const auto depths = static_cast<std::uint32_t>(t.out[0]);
  auto rest = static_cast<std::uint32_t>(block);
  BlockOrigin b;
  b.vector0 = std::int64_t{rest % slices} * t.slice_vectors;
  const std::int64_t left = t.channel_vectors - b.vector0;
  b.vectors = static_cast<int>(left < t.slice_vectors ? left : t.slice_vectors);
  rest /= slices;
  b.col0 = std::int64_t{rest % col_tiles} * t.tile_cols * kRun;
  rest /= col_tiles;
  b.row0 = std::int64_t{rest % row_tiles} * t.tile_rows;
  rest /= row_tiles;
  b.depth = rest % depths;
  b.image = rest / depths;
  return b;
}

// A thread's vector and run: channel vectors fastest, so a warp's loads at one column are whole
// 128-byte lines of consecutive positions' channels.
struct ThreadRun {
  bool active = false;    // inside the output and the slice
  int vector = 0;         // within the slice
  std::int64_t row = 0;   // output row
  std::int64_t col0 = 0;  // first output column
  int outputs = 0;        // output columns of the run inside the output (1..kRun when active)
};

KBENCH_HD ThreadRun thread_run(const Params& t, const BlockOrigin& b, int thread) {
  ThreadRun r;
  r.vector = thread % t.slice_vectors;
  const int position = thread / t.slice_vectors;
  r.row = b.row0 + position / t.tile_cols;
  r.col0 = b.col0 + std::int64_t{position % t.tile_cols} * kRun;
  r.active = position < t.tile_rows * t.tile_cols && r.vector < b.vectors && r.row < t.out[1] && r.col0 < t.out[2];
  const std::int64_t left = t.out[2] - r.col0;
  r.outputs = r.active ? static_cast<int>(left < kRun ? left : kRun) : 0;
  return r;
}

// Element offsets of channel `c` at a position of the channels-last input and output, and of a
// depthwise weight (channel, flat tap).
KBENCH_HD std::int64_t input_offset(const Params& t, std::int64_t image, std::int64_t d, std::int64_t h, std::int64_t w,
                                    std::int64_t c) {
  const ConvProblem& p = t.p3;
  return (((image * p.input[0] + d) * p.input[1] + h) * p.input[2] + w) * p.in_channels + c;
}
KBENCH_HD std::int64_t output_offset(const Params& t, std::int64_t image, std::int64_t d, std::int64_t h,
                                     std::int64_t w, std::int64_t c) {
  return (((image * t.out[0] + d) * t.out[1] + h) * t.out[2] + w) * t.p3.out_channels + c;
}
KBENCH_HD std::int64_t weight_offset(const Params& t, std::int64_t c, std::int64_t tap) {
  return c * (t.p3.kernel[0] * t.p3.kernel[1] * t.p3.kernel[2]) + tap;  // rank 3: no loop over the rank
}

// Input coordinate of output coordinate `o` at tap `k` along dimension `d` (may lie in the padding).
KBENCH_HD std::int64_t input_coord(const Params& t, int d, std::int64_t o, std::int64_t k) {
  return o * t.p3.stride[d] - t.p3.pad_before[d] + k * t.p3.dilation[d];
}

// The input columns of a run: output r reads column first[r] + kx * dilation at horizontal tap kx.
// Outputs past the row start at kOutside, so every tap of theirs lands left of the input (reaches
// stay below 2^30) and is skipped like padding. Every value fits 32 bits: the fast paths keep
// extents, reaches and so the columns of real outputs below 2^30 (fast_path_extents).
struct RunColumns {
  static constexpr int kOutside = -(1 << 30);
  int first[kRun];
};

KBENCH_HD RunColumns run_columns(const Params& t, const ThreadRun& run) {
  RunColumns c;
  const int origin = static_cast<int>(input_coord(t, 2, run.col0, 0));
  const int stride = static_cast<int>(t.p3.stride[2]);
  for (int r = 0; r < kRun; ++r) c.first[r] = r < run.outputs ? origin + r * stride : RunColumns::kOutside;
  return c;
}

// Whether input column `column` lies inside the row (not in the padding).
KBENCH_HD bool column_inside(const Params& t, int column) {
  return static_cast<unsigned>(column) < static_cast<unsigned>(t.p3.input[2]);
}

}  // namespace kbench::gpu::conv::depthwise_nhwc
