#pragma once
// Index arithmetic of the input_patch order of the implicit-GEMM kernel, shared with the CPU tests.
//
// Few input channels and a large kernel (problem 50: 3 channels, 11x11, stride 4) make the per-chunk
// gather of B costly: every element needs a table entry, a bounds test and a 4-byte copy, and
// neighbouring columns re-read the same input through L1 up to 121 times. Instead, a block copies
// once the input rectangle its columns read ("patch": every channel of the group, the input rows
// under its output rows, the full padded width) into shared memory with 16-byte copies, padding as
// zeros, and reads B[k][n] = patch[koff(k) + noff(n)] in the math loop: one add and one shared load,
// no test. Column tiles never straddle two images, so a tile's output rows are consecutive.
//
// For a forward convolution as rank 3 with a unit leading dimension (1-D or 2-D), per image:
//   column pos = oh * OW + ow; tile t holds pos in [t*BN, t*BN + BN);
//   the tile's first output row oh0 = t*BN / OW reads input rows from ih0 = oh0*s1 - pad_top;
//   patch cell (c, r, col) holds input (c, ih0 + r, col - data_col), zero outside the input;
//   koff(c, tap) = c*channel_floats + off1*stride + off2,
//   noff(pos)    = (oh - oh0)*s1*stride + ow*s2 + data_col - pad_left.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/host_device.hpp"
#include "core/support.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"

namespace kbench::gpu::conv::igemm {

// ---------------------------------------------------------------- per block and column

struct PatchTile {
  std::int64_t image = 0;
  std::int32_t tile = 0;
  std::int32_t first_out_row = 0;  // oh0
  std::int32_t first_in_row = 0;   // ih0 (negative inside the top padding)
};

KBENCH_HD PatchTile patch_tile(const GemmConvParams& d, std::int64_t block_x, int bn) {
  PatchTile t;
  t.image = block_x / d.patch.tiles_per_image;
  t.tile = static_cast<std::int32_t>(block_x % d.patch.tiles_per_image);
  t.first_out_row = static_cast<std::int32_t>(static_cast<std::int64_t>(t.tile) * bn / d.col_extent[2]);
  t.first_in_row = static_cast<std::int32_t>(t.first_out_row * d.base_scale[1] + d.base_offset[1]);
  return t;
}

struct PatchColumn {
  bool valid = false;     // the tile's column exists (the last tile of an image may be partial)
  std::int64_t n = 0;     // GEMM column (batch x image columns); d.columns when !valid
  std::int32_t noff = 0;  // patch offset of the column's tap (0, 0); 0 when !valid (a readable cell)
};

KBENCH_HD PatchColumn patch_column(const GemmConvParams& d, const PatchTile& t, int n_local, int bn) {
  PatchColumn c;
  const std::int64_t pos = static_cast<std::int64_t>(t.tile) * bn + n_local;
  c.valid = pos < d.patch.image_columns;
  if (!c.valid) {
    c.n = d.columns;
    return c;
  }
  c.n = t.image * d.patch.image_columns + pos;
  const std::int64_t oh = pos / d.col_extent[2];
  const std::int64_t ow = pos % d.col_extent[2];
  c.noff = static_cast<std::int32_t>((oh - t.first_out_row) * d.base_scale[1] * d.patch.stride + ow * d.base_scale[2] +
                                     d.patch.data_col + d.base_offset[2]);
  return c;
}

// Patch offset of reduction row k (k = c*taps + t of the dense reduction); rows past the reduction
// get 0, and the kernel multiplies them by zero rows of A and masks their B elements.
KBENCH_HD std::int32_t patch_koff(const GemmConvParams& d, const GemmTap* taps, std::int64_t k) {
  if (k >= d.cin_per_group * d.taps) return 0;
  const GemmTap& tap = taps[k % d.taps];
  return static_cast<std::int32_t>((k / d.taps) * d.patch.channel_floats + tap.offset[1] * d.patch.stride +
                                   tap.offset[2]);
}

// The global input row that patch row (c, r) copies, as the input index of its column 0, or -1
// when the row lies in the padding (the row is zeros).
KBENCH_HD std::int64_t patch_row_source(const GemmConvParams& d, const PatchTile& t, std::int64_t group, int c, int r) {
  const std::int64_t ih = static_cast<std::int64_t>(t.first_in_row) + r;
  if (ih < 0 || ih >= d.in_extent[1]) return -1;
  return ((t.image * d.in_channels + group * d.cin_per_group + c) * d.in_volume) + ih * d.in_extent[2];
}

// The input column that 16-byte vector v (patch columns 4v .. 4v+3) of any patch row starts at, or
// -1 for a vector of padding.
KBENCH_HD int patch_vector_column(const GemmConvParams& d, int v) {
  const int col = 4 * v - d.patch.data_col;
  return col < 0 || col >= 4 * d.patch.load_vectors ? -1 : col;
}

// What the loader does with vector v of patch row `row` (row = c * rows + r): copy input index
// `source` .. +3, or store zeros (source = -1). The kernel computes the row's source once per row.
KBENCH_HD std::int64_t patch_vector_source(const GemmConvParams& d, const PatchTile& t, std::int64_t group, int row,
                                           int v) {
  const int col = patch_vector_column(d, v);
  const std::int64_t base = patch_row_source(d, t, group, row / d.patch.rows, row % d.patch.rows);
  return col < 0 || base < 0 ? -1 : base + col;
}

// ---------------------------------------------------------------- host-side construction

inline std::int64_t round_up_4(std::int64_t v) { return (v + 3) / 4 * 4; }

struct PatchParamsFit {
  PatchParams desc;
  Support support;  // whether the order applies
};

// The patch geometry of forward descriptor d for column tiles of `bn`, or why the order cannot run it.
inline PatchParamsFit make_patch_params(const GemmConvParams& d, const std::vector<GemmTap>& taps, int bn) {
  PatchParamsFit tiling;
  if (d.col_extent[0] != 1 || d.in_extent[0] != 1 || d.base_scale[0] != 1 || d.base_offset[0] != 0) {
    tiling.support = Support::no("input_patch: 1-D and 2-D convolutions only");
    return tiling;
  }
  std::int64_t off1 = 0, off2 = 0;
  for (const GemmTap& t : taps) {
    if (t.offset[0] != 0 || t.offset[1] < 0 || t.offset[2] < 0) {
      tiling.support = Support::no("input_patch: forward taps only");
      return tiling;
    }
    off1 = t.offset[1] > off1 ? t.offset[1] : off1;
    off2 = t.offset[2] > off2 ? t.offset[2] : off2;
  }
  if (d.in_extent[2] % 4 != 0) {
    tiling.support = Support::no("input_patch: input rows must be a multiple of 4 floats (16-byte copies)");
    return tiling;
  }
  const std::int64_t oh = d.col_extent[1], ow = d.col_extent[2];
  const std::int64_t s1 = d.base_scale[1], s2 = d.base_scale[2];
  const std::int64_t pad_left = -d.base_offset[2];
  // Output rows a tile of bn consecutive positions can touch, and the input rows under them.
  const std::int64_t row_span = std::min<std::int64_t>(oh, (bn - 1) / ow + 2);
  const std::int64_t rows = (row_span - 1) * s1 + off1 + 1;
  const std::int64_t data_col = round_up_4(pad_left);
  const std::int64_t last_col_read = (ow - 1) * s2 - pad_left + off2;  // largest input column a tap reads
  const std::int64_t load_cols =
      std::min<std::int64_t>(d.in_extent[2], round_up_4(std::max<std::int64_t>(last_col_read + 1, 0)));
  const std::int64_t stride = round_up_4(data_col + std::max(load_cols, last_col_read + 1));
  const std::int64_t channel_floats = rows * stride;
  const std::int64_t floats = d.cin_per_group * channel_floats;
  const std::int64_t tiles = (oh * ow + bn - 1) / bn;
  if (floats > (std::int64_t{1} << 20) || tiles * d.batch > 0x7fffffff) {
    tiling.support = Support::no("input_patch: patch or grid too large");
    return tiling;
  }
  PatchParams& p = tiling.desc;
  p.tiles_per_image = static_cast<std::int32_t>(tiles);
  p.image_columns = static_cast<std::int32_t>(oh * ow);
  p.rows = static_cast<std::int32_t>(rows);
  p.stride = static_cast<std::int32_t>(stride);
  p.channel_floats = static_cast<std::int32_t>(channel_floats);
  p.floats = static_cast<std::int32_t>(floats);
  p.data_col = static_cast<std::int32_t>(data_col);
  p.load_vectors = static_cast<std::int32_t>(load_cols / 4);
  return tiling;
}

// The per-k offsets of a descriptor, chunk by chunk (chunks * kChunkRows entries).
inline std::vector<std::int32_t> make_patch_koffs(const GemmConvParams& d, const std::vector<GemmTap>& taps) {
  std::vector<std::int32_t> koffs;
  koffs.reserve(static_cast<std::size_t>(d.chunks * kChunkRows));
  for (std::int64_t k = 0; k < d.chunks * kChunkRows; ++k) koffs.push_back(patch_koff(d, taps.data(), k));
  return koffs;
}

}  // namespace kbench::gpu::conv::igemm
