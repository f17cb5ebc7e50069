#pragma once
// The walk of a persistent, resident-A block (ASchedule::resident, igemm_resident_kernel.cuh) and
// the output index of its direct stores, shared with the CPU tests.
//
// Block b of B (gridDim.x) owns column tiles b, b + B, b + 2B, ... of the row tile and group it
// sits in; its pipeline runs over the flattened sequence of (tile, chunk) iterations, so the loads
// of a tile's first chunks overlap the math of the previous tile's last ones.
//
// Forward convolutions only: GEMM column n is (image n / V, output position n % V) with V the output
// volume, so C[m][n] lands at ((image * C_out + group * M + m) * V + position). The epilogue stores
// pairs of adjacent columns (an mma accumulator pair, or two FFMA neighbours) as one 8-byte store when
// V is even: a pair at an even column then never straddles two images and is 8-byte aligned.
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"

namespace kbench::gpu::conv::igemm {

struct ResidentWalk {
  std::int64_t tiles = 0;       // this block's column tiles
  std::int64_t iterations = 0;  // tiles x chunks
};

// Column tiles of `tile_columns` GEMM columns.
KBENCH_HD std::int64_t column_tiles(const GemmConvParams& d, std::int64_t tile_columns) {
  return (d.columns + tile_columns - 1) / tile_columns;
}

KBENCH_HD ResidentWalk resident_walk(const GemmConvParams& d, std::int64_t tile_columns, std::int64_t block,
                                     std::int64_t blocks) {
  const std::int64_t all = column_tiles(d, tile_columns);
  ResidentWalk w;
  w.tiles = block < all ? (all - block + blocks - 1) / blocks : 0;
  w.iterations = w.tiles * d.chunks;
  return w;
}

// The column tile of a block's t-th tile.
KBENCH_HD std::int64_t resident_tile(std::int64_t block, std::int64_t blocks, std::int64_t t) {
  return block + t * blocks;
}

// Where column n0 (a tile's first) lies: image and output position; columns of the tile are found
// from it with a compare (and, only past an image boundary, a division).
struct ColumnOrigin {
  std::int64_t image = 0;
  std::int64_t position = 0;
};

KBENCH_HD ColumnOrigin column_origin(const GemmConvParams& d, std::int64_t n0) {
  return ColumnOrigin{n0 / d.out_volume, n0 % d.out_volume};
}

// Output index of C[0][n0 + col] of group 0 (n0 + col < columns): add (group * M + m) * V for row m
// of a group. A column past the tile's first image steps over whole images by subtraction (no
// division: once for a tile that straddles two images, at most 256 / V times for tiny images).
KBENCH_HD std::int64_t resident_column_index(const GemmConvParams& d, const ColumnOrigin& o, std::int64_t col) {
  std::int64_t image = o.image, position = o.position + col;
  while (position >= d.out_volume) {
    position -= d.out_volume;
    ++image;
  }
  return image * d.out_channels * d.out_volume + position;
}

// Output index of C[m][n0 + col] (m within the group, n0 + col < columns).
KBENCH_HD std::int64_t resident_output_index(const GemmConvParams& d, std::int64_t group, const ColumnOrigin& o,
                                             std::int64_t col, std::int64_t m) {
  return resident_column_index(d, o, col) + (group * d.rows + m) * d.out_volume;
}

// Whether the epilogue may store column pairs (even col) as one 8-byte store.
KBENCH_HD bool resident_pair_stores(const GemmConvParams& d) { return d.out_volume % 2 == 0; }

}  // namespace kbench::gpu::conv::igemm
