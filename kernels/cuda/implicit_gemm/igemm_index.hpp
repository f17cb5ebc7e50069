#pragma once
// Index arithmetic of the implicit-GEMM convolution kernel, shared with the CPU tests.
//
// Per group g the kernel computes C[m][n] = sum_k A[m][k] * B[k][n]:
//   m  (rows)     output channel within the group,
//   n  (columns)  (batch, column grid position P[3]) flattened row-major,
//   k  (reduction) (input channel within the group, tap of a tap list).
// One descriptor serves a forward convolution (column grid = output grid, taps = all kernel taps)
// and one phase of a transposed convolution (column grid = that phase's q grid, taps = the phase's
// taps, see cuda/transposed/phase_index.hpp). Everything is rank 3 (lower ranks are padded with
// leading unit dimensions, as_rank3).
//
// Input coordinate read by column P through a tap:  base[d] + tap.offset[d], base[d] = P[d]*base_scale[d] +
// base_offset[d] Output coordinate of column P:                     P[d]*out_scale[d] + out_offset[d]
//
// The reduction is consumed in chunks of kChunkRows rows, in one of two orders:
//   channel_blocks: chunk j = (channel block j / taps, tap j % taps), row r = channel block*16 + r.
//                   One tap per chunk, so bounds are checked once per chunk; rows past C_in/g are zero.
//   k_table:        k = c*taps + t over the dense reduction, chunk j = rows [16j, 16j + 16), the tail zero.
//                   For few input channels (problem 50: 3 channels x 121 taps), where channel blocks would be mostly zero.
// A is packed once per run into exactly that order, [g][chunk][row][rows_padded], zero-padded, so the
// kernel copies it with aligned 16-byte loads and no masks.
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/variant_knobs.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv::igemm {

inline constexpr int kChunkRows = 16;

// The reduction orders, A schedules, tensor-core instructions and split-K modes a variant can force
// (KOrder, ASchedule, MmaKind, SplitK) are in cuda/common/variant_knobs.hpp.

// Geometry of the input_patch order (zero for the others), see igemm_patch_index.hpp.
struct PatchParams {
  std::int32_t tiles_per_image = 0;  // column tiles of one image (tiles never straddle two images)
  std::int32_t image_columns = 0;    // columns of one image: output rows x output columns
  std::int32_t rows = 0;             // input rows a patch holds (per channel)
  std::int32_t stride = 0;           // floats per patch row in shared memory, a multiple of 4
  std::int32_t channel_floats = 0;   // rows * stride
  std::int32_t floats = 0;           // channels of the group x channel_floats
  std::int32_t data_col = 0;         // patch column of input column 0, a multiple of 4
  std::int32_t load_vectors = 0;     // 16-byte vectors copied per input row
};

// One tap of the GEMM's tap list: input coordinate offsets and the tap's flat index in the weight's [k...] block.
struct GemmTap {
  std::int32_t offset[3] = {0, 0, 0};
  std::int32_t weight_tap = 0;
};

// One reduction row of the k_table order: its tap offsets, and the input offset it adds to a
// column's base (channel * in_volume + spatial offset of the tap).
struct KEntry {
  std::int32_t offset[3] = {0, 0, 0};
  std::int32_t valid = 0;
  std::int64_t delta = 0;
};

struct GemmConvParams {
  std::int64_t groups = 1;
  std::int64_t rows = 1;     // M: output channels per group
  std::int64_t columns = 1;  // N: batch x column grid volume
  std::int64_t cin_per_group = 1;
  std::int64_t taps = 1;
  KOrder order = KOrder::channel_blocks;
  std::int64_t chunks = 1;
  std::int64_t rows_padded = 1;  // M rounded up to the block tile: row length of packed A

  std::int64_t batch = 1;
  std::int64_t in_extent[3] = {1, 1, 1};
  std::int64_t in_channels = 1;
  std::int64_t in_volume = 1;

  std::int64_t col_extent[3] = {1, 1, 1};
  std::int64_t base_scale[3] = {1, 1, 1};
  std::int64_t base_offset[3] = {0, 0, 0};

  // Weight element (group g, row m, channel c, tap t) = g*w_group_stride + m*w_row_stride + c*w_channel_stride +
  // tap.weight_tap
  std::int64_t w_group_stride = 0;
  std::int64_t w_row_stride = 0;
  std::int64_t w_channel_stride = 0;

  std::int64_t out_extent[3] = {1, 1, 1};
  std::int64_t out_channels = 1;
  std::int64_t out_volume = 1;
  std::int64_t out_scale[3] = {1, 1, 1};
  std::int64_t out_offset[3] = {0, 0, 0};

  // Transposed only: untapped outputs along the last dimension that a computed output also writes
  // (its bias): the `tail` positions right after it, and [0, lead) for the column with P[2] == 0.
  std::int64_t tail = 0;
  std::int64_t lead = 0;

  PatchParams patch;  // input_patch order only

  // Transposed convolutions' untapped outputs (the zero fill), when this GEMM carries them: every
  // block of the grid fills its share of the planes, and the grid's x holds this many fill-only
  // blocks after the column tiles (zero_fill_index.hpp: trailing_fill_blocks).
  std::int64_t fill_blocks = 0;

  ASchedule a_schedule = ASchedule::streamed;
  MmaKind mma = MmaKind::mma_sync;
  // Planes of packed A: 2 where the 3xTF32 math reads A through wgmma descriptors (big parts, then
  // remainders: the tensor core cannot split an operand it reads from shared memory), else 1.
  std::int32_t a_planes = 1;
  // resident: the persistent blocks per (row tile, group), set by the launch from the device's SM
  // count (0: one block per column tile, still correct).
  std::int64_t resident_blocks = 0;
  // Split-K: the blocks of an output tile (grid z = groups x splits), each reducing its share of the
  // chunks into a partial tile in a workspace that a second kernel sums (igemm_split_index.hpp). 1:
  // the GEMM stores the output itself. Set by the launch from the device's SM count.
  std::int64_t splits = 1;
};

// ---------------------------------------------------------------- reduction order

KBENCH_HD std::int64_t channel_blocks_of(const GemmConvParams& d) {
  return (d.cin_per_group + kChunkRows - 1) / kChunkRows;
}

// Whether the reduction is the dense k = c*taps + t (k_table and input_patch) rather than channel blocks.
KBENCH_HD bool dense_reduction(KOrder order) { return order != KOrder::channel_blocks; }

KBENCH_HD std::int64_t chunk_count(std::int64_t cin_per_group, std::int64_t taps, KOrder order) {
  if (!dense_reduction(order)) return (cin_per_group + kChunkRows - 1) / kChunkRows * taps;
  return (cin_per_group * taps + kChunkRows - 1) / kChunkRows;
}

struct ReductionSlot {
  bool valid = false;
  std::int64_t channel = 0;  // within the group
  std::int64_t tap = 0;      // index into the tap list
};

KBENCH_HD ReductionSlot reduction_slot(const GemmConvParams& d, std::int64_t chunk, std::int64_t row) {
  ReductionSlot s;
  if (!dense_reduction(d.order)) {
    s.tap = chunk % d.taps;
    s.channel = (chunk / d.taps) * kChunkRows + row;
    s.valid = s.channel < d.cin_per_group;
  } else {
    const std::int64_t k = chunk * kChunkRows + row;
    s.valid = k < d.cin_per_group * d.taps;
    s.channel = k / d.taps;
    s.tap = k % d.taps;
  }
  return s;
}

// How a chunk of packed A is laid out: k_major, [row][m] (the FFMA kernels read float4s along m);
// mma_fragments, [k-step of 8][16-row block][lane][4] (the tensor-core kernels read each lane's
// four A-fragment elements of an m16n8k8 product with one 16-byte load): element e of lane l in
// row block b and k-step s is row k = 8s + l%4 + 4(e/2), m = 16b + l/4 + 8(e%2) (the PTX ISA's
// fragment layout, as mma_a_coord has it); wgmma_cores, what a wgmma shared-memory descriptor
// reads without swizzle (K-major "core matrices" of 8 rows m x 4 reduction rows k, 128 contiguous
// bytes, k fastest), per row tile of kWgmmaRows rows: [row tile][plane][k quad][m octet][m % 8][k % 4].
enum class ALayout : std::int32_t { k_major = 0, mma_fragments = 1, wgmma_cores = 2 };

// Rows (output channels) of the wgmma kernel's tile: the instruction's N (m64n96k8).
inline constexpr int kWgmmaRows = 96;
// Floats of one wgmma_cores plane of a chunk's row tile: 16 reduction rows x 96 rows.
inline constexpr int kWgmmaPlaneFloats = kChunkRows * kWgmmaRows;

// Float offset of (row k, m) inside one wgmma_cores plane (k < 16, m < kWgmmaRows): core matrix
// (k / 4, m / 8) at 32 (k / 4 * 12 + m / 8), then row m % 8 (16 bytes), then k % 4. The kernel's
// descriptors say the same with byte strides: k quads kWgmmaKQuadBytes apart (the "leading
// dimension byte offset"), m octets 128 bytes apart (the "stride dimension byte offset").
inline constexpr int kWgmmaKQuadBytes = kWgmmaRows / 8 * 128;
KBENCH_HD constexpr int wgmma_core_offset(int k, int m) {
  return (k / 4 * (kWgmmaRows / 8) + m / 8) * 32 + m % 8 * 4 + k % 4;
}

KBENCH_HD std::int64_t packed_a_index(const GemmConvParams& d, std::int64_t group, std::int64_t chunk, std::int64_t row,
                                      std::int64_t m) {
  return ((group * d.chunks + chunk) * kChunkRows + row) * d.rows_padded + m;
}

// Start of k-step `step` (0 or 1) of 16-row block `block` of a chunk, in the mma_fragments layout.
KBENCH_HD std::int64_t packed_a_fragment_index(const GemmConvParams& d, std::int64_t group, std::int64_t chunk,
                                               std::int64_t step, std::int64_t block) {
  return (group * d.chunks + chunk) * kChunkRows * d.rows_padded + step * 8 * d.rows_padded + block * 128;
}

// Start of row tile `tile`'s planes of a chunk, in the wgmma_cores layout (d.a_planes contiguous planes).
KBENCH_HD std::int64_t packed_a_wgmma_index(const GemmConvParams& d, std::int64_t group, std::int64_t chunk,
                                            std::int64_t tile) {
  return ((group * d.chunks + chunk) * (d.rows_padded / kWgmmaRows) + tile) * d.a_planes * kWgmmaPlaneFloats;
}

// The (group, chunk, row, m) that flat packed-A index idx holds, in any layout, and its plane
// (wgmma_cores with two planes: 1 for the remainders).
struct PackedACoord {
  std::int64_t group = 0, chunk = 0, row = 0, m = 0;
  int plane = 0;
};

KBENCH_HD PackedACoord packed_a_coord(const GemmConvParams& d, std::int64_t idx, ALayout layout) {
  PackedACoord c;
  const std::int64_t per_chunk = kChunkRows * d.rows_padded * d.a_planes;
  const std::int64_t group_chunk = idx / per_chunk;
  const std::int64_t in_chunk = idx % per_chunk;
  c.chunk = group_chunk % d.chunks;
  c.group = group_chunk / d.chunks;
  if (layout == ALayout::wgmma_cores) {
    const std::int64_t tile = in_chunk / (d.a_planes * kWgmmaPlaneFloats);
    const std::int64_t in_tile = in_chunk % (d.a_planes * kWgmmaPlaneFloats);
    c.plane = static_cast<int>(in_tile / kWgmmaPlaneFloats);
    const std::int64_t in_plane = in_tile % kWgmmaPlaneFloats;
    const std::int64_t core = in_plane / 32;
    c.row = core / (kWgmmaRows / 8) * 4 + in_plane % 4;
    c.m = tile * kWgmmaRows + core % (kWgmmaRows / 8) * 8 + in_plane % 32 / 4;
  } else if (layout == ALayout::k_major) {
    c.row = in_chunk / d.rows_padded;
    c.m = in_chunk % d.rows_padded;
  } else {
    const std::int64_t step = in_chunk / (8 * d.rows_padded);
    const std::int64_t in_step = in_chunk % (8 * d.rows_padded);
    const std::int64_t block = in_step / 128, lane = in_step % 128 / 4, e = in_step % 4;
    c.row = 8 * step + lane % 4 + 4 * (e / 2);
    c.m = 16 * block + lane / 4 + 8 * (e % 2);
  }
  return c;
}

KBENCH_HD std::int64_t packed_a_size(const GemmConvParams& d) {
  return d.groups * d.chunks * kChunkRows * d.rows_padded * d.a_planes;
}

// Flat weight index that packed A element (g, chunk, row, m) copies, or -1 for a zero of the padding.
KBENCH_HD std::int64_t packed_a_source(const GemmConvParams& d, const GemmTap* taps, std::int64_t group,
                                       std::int64_t chunk, std::int64_t row, std::int64_t m) {
  const ReductionSlot s = reduction_slot(d, chunk, row);
  if (!s.valid || m >= d.rows) return -1;
  return group * d.w_group_stride + m * d.w_row_stride + s.channel * d.w_channel_stride + taps[s.tap].weight_tap;
}

// Packed A element idx in `layout`: the weight it copies, or a zero of the padding, rounded to TF32
// to nearest when `tf32` (the tf32 math: once per run, so the GEMM's loop does not). With two planes
// (3xTF32 through wgmma) the split_tf32 parts instead: the big part in plane 0, the remainder in plane 1.
KBENCH_HD float packed_a_value(const GemmConvParams& d, const GemmTap* taps, const float* w, std::int64_t idx,
                               ALayout layout, bool tf32) {
  const PackedACoord c = packed_a_coord(d, idx, layout);
  const std::int64_t src = packed_a_source(d, taps, c.group, c.chunk, c.row, c.m);
  const float v = src >= 0 ? w[src] : 0.0f;
  if (d.a_planes == 2) {
    const Tf32Split s = split_tf32(v);
    return tf32_value_of(c.plane == 0 ? s.big : s.small);
  }
  return tf32 ? round_tf32(v) : v;
}

// ---------------------------------------------------------------- columns (the B operand)

KBENCH_HD std::int64_t spatial_offset(const GemmConvParams& d, const std::int32_t offset[3]) {
  return (offset[0] * d.in_extent[1] + offset[1]) * d.in_extent[2] + offset[2];
}

// What a thread loading column n of group g keeps for the whole reduction.
struct ColumnState {
  bool valid = false;  // n < columns
  std::int32_t base[3] = {0, 0, 0};
  std::int64_t offset = 0;  // input index of (batch, first channel of g, base coordinates); may be "virtual" (padding)
};

KBENCH_HD ColumnState column_state(const GemmConvParams& d, std::int64_t group, std::int64_t n) {
  ColumnState c;
  c.valid = n < d.columns;
  if (!c.valid) return c;
  std::int64_t rest = n;
  std::int64_t pos[3];
  for (int i = 2; i >= 0; --i) {
    pos[i] = rest % d.col_extent[i];
    rest /= d.col_extent[i];
  }
  const std::int64_t batch = rest;
  for (int i = 0; i < 3; ++i) c.base[i] = static_cast<std::int32_t>(pos[i] * d.base_scale[i] + d.base_offset[i]);
  c.offset = (batch * d.in_channels + group * d.cin_per_group) * d.in_volume + spatial_offset(d, c.base);
  return c;
}

// Whether the column's base moved by the tap offsets lies inside the input (else the element is padding).
// 32-bit, one unsigned compare per dimension (a negative coordinate wraps to a huge one): this runs
// once per loaded element in the k_table order. The envelope keeps extents and offsets below 2^30.
KBENCH_HD bool tap_in_input(const GemmConvParams& d, const ColumnState& c, const std::int32_t offset[3]) {
  bool inside = c.valid;
  for (int i = 0; i < 3; ++i) {
    const auto coord = static_cast<std::uint32_t>(c.base[i] + offset[i]);
    inside = inside && coord < static_cast<std::uint32_t>(d.in_extent[i]);
  }
  return inside;
}

// Input index of B[(channel, tap)][column], or -1 where B is zero (padding, or outside the columns).
KBENCH_HD std::int64_t b_source(const GemmConvParams& d, const ColumnState& c, const GemmTap& tap, std::int64_t channel) {
  if (!tap_in_input(d, c, tap.offset)) return -1;
  return c.offset + spatial_offset(d, tap.offset) + channel * d.in_volume;
}

// The k_table entry of (chunk, row).
KBENCH_HD KEntry k_entry(const GemmConvParams& d, const GemmTap* taps, std::int64_t chunk, std::int64_t row) {
  KEntry e;
  const ReductionSlot s = reduction_slot(d, chunk, row);
  if (!s.valid) return e;  // valid = 0: the kernel loads a zero
  const GemmTap& t = taps[s.tap];
  for (int i = 0; i < 3; ++i) e.offset[i] = t.offset[i];
  e.valid = 1;
  e.delta = s.channel * d.in_volume + spatial_offset(d, t.offset);
  return e;
}

// ---------------------------------------------------------------- output

struct OutputState {
  bool valid = false;
  std::int64_t offset = 0;      // output index of (batch, first channel of g, coordinates); add m*out_volume
  std::int64_t last_coord = 0;  // coordinate along the last dimension
  bool first_in_row = false;    // P[2] == 0: this column also writes [0, lead)
};

KBENCH_HD OutputState output_state(const GemmConvParams& d, std::int64_t group, std::int64_t n) {
  OutputState o;
  o.valid = n < d.columns;
  if (!o.valid) return o;
  std::int64_t rest = n;
  std::int64_t coord[3];
  for (int i = 2; i >= 0; --i) {
    const std::int64_t pos = rest % d.col_extent[i];
    rest /= d.col_extent[i];
    coord[i] = pos * d.out_scale[i] + d.out_offset[i];
    if (i == 2) o.first_in_row = pos == 0;
  }
  const std::int64_t batch = rest;
  o.last_coord = coord[2];
  o.offset = (batch * d.out_channels + group * d.rows) * d.out_volume +
             (coord[0] * d.out_extent[1] + coord[1]) * d.out_extent[2] + coord[2];
  return o;
}

// Number of tail positions an output at last_coord writes (clipped to the row).
KBENCH_HD std::int64_t tail_length(const GemmConvParams& d, std::int64_t last_coord) {
  const std::int64_t room = d.out_extent[2] - 1 - last_coord;
  return d.tail < room ? d.tail : room;
}

// ---------------------------------------------------------------- host-side construction

inline std::int64_t round_up(std::int64_t v, std::int64_t multiple) { return (v + multiple - 1) / multiple * multiple; }

// Largest reduction the k_table order is always preferred for: its table (24-byte KEntry rows) then
// takes 48 KB of shared memory at most. Not a limit: a k table, the input_patch offsets (4 bytes a
// row) and the channel_blocks tap list (16 bytes a tap) are bounded by the block's shared memory
// (smem_layout, kMaxSmemBytes) alone.
inline constexpr std::int64_t kPreferredTableRows = 2048;

// Whether channel blocks of kChunkRows would waste more than a quarter of the reduction on zero rows
// (fewer channels per group than a block holds, or just over a multiple of it).
inline bool channel_blocks_wasteful(std::int64_t cin_per_group) {
  const std::int64_t padded = round_up(cin_per_group, kChunkRows);
  return 4 * (padded - cin_per_group) > padded;
}

// channel_blocks unless that wastes more than a quarter of the reduction on zero rows and the
// reduction fits the preferred table. Channel blocks cost less per element (bounds checked once per chunk).
inline KOrder choose_k_order(std::int64_t cin_per_group, std::int64_t taps) {
  const bool table_fits = round_up(cin_per_group * taps, kChunkRows) <= kPreferredTableRows;
  return channel_blocks_wasteful(cin_per_group) && table_fits ? KOrder::k_table : KOrder::channel_blocks;
}

// Fills the fields every descriptor shares; the caller sets columns, taps and the maps.
inline void fill_common(GemmConvParams& d, const ConvProblem& p3) {
  d.groups = p3.groups;
  d.rows = p3.out_channels_per_group();
  d.cin_per_group = p3.in_channels_per_group();
  d.batch = p3.batch;
  d.in_channels = p3.in_channels;
  d.in_volume = p3.input_spatial_volume();
  d.out_channels = p3.out_channels;
  d.out_volume = p3.output_spatial_volume();
  for (int i = 0; i < 3; ++i) {
    d.in_extent[i] = p3.input[i];
    d.out_extent[i] = p3.output_extent(i);
  }
}

inline void finish(GemmConvParams& d, KOrder order, std::int64_t tile_rows) {
  d.order = order;
  d.chunks = chunk_count(d.cin_per_group, d.taps, order);
  d.rows_padded = round_up(d.rows, tile_rows);
  d.columns = d.batch * d.col_extent[0] * d.col_extent[1] * d.col_extent[2];
}

// Every kernel tap, in the weight's order.
inline std::vector<GemmTap> forward_taps(const ConvProblem& p3) {
  std::vector<GemmTap> taps;
  for (std::int64_t k0 = 0; k0 < p3.kernel[0]; ++k0)
    for (std::int64_t k1 = 0; k1 < p3.kernel[1]; ++k1)
      for (std::int64_t k2 = 0; k2 < p3.kernel[2]; ++k2) {
        GemmTap t;
        t.offset[0] = static_cast<std::int32_t>(k0 * p3.dilation[0]);
        t.offset[1] = static_cast<std::int32_t>(k1 * p3.dilation[1]);
        t.offset[2] = static_cast<std::int32_t>(k2 * p3.dilation[2]);
        t.weight_tap = static_cast<std::int32_t>((k0 * p3.kernel[1] + k1) * p3.kernel[2] + k2);
        taps.push_back(t);
      }
  return taps;
}

// A forward convolution (p3: rank 3, not transposed) with weight [C_out, C_in/g, k...].
inline GemmConvParams make_forward_params(const ConvProblem& p3, KOrder order, std::int64_t tile_rows) {
  GemmConvParams d;
  fill_common(d, p3);
  d.taps = p3.kernel_volume();
  for (int i = 0; i < 3; ++i) {
    d.col_extent[i] = d.out_extent[i];
    d.base_scale[i] = p3.stride[i];
    d.base_offset[i] = -p3.pad_before[i];
  }
  d.w_channel_stride = d.taps;
  d.w_row_stride = d.cin_per_group * d.taps;
  d.w_group_stride = d.rows * d.w_row_stride;
  finish(d, order, tile_rows);
  return d;
}

// The taps of one phase combination of a transposed convolution (ph[d]: phase along d).
inline std::vector<GemmTap> phase_taps(const ConvProblem& p3, const PhaseDim dims[3], const std::int64_t ph[3]) {
  std::vector<GemmTap> taps;
  const std::int64_t count[3] = {phase_tap_count(dims[0], ph[0]), phase_tap_count(dims[1], ph[1]),
                                 phase_tap_count(dims[2], ph[2])};
  for (std::int64_t j0 = 0; j0 < count[0]; ++j0)
    for (std::int64_t j1 = 0; j1 < count[1]; ++j1)
      for (std::int64_t j2 = 0; j2 < count[2]; ++j2) {
        const std::int64_t j[3] = {j0, j1, j2};
        GemmTap t;
        std::int64_t flat = 0;
        for (int i = 0; i < 3; ++i) {
          t.offset[i] = static_cast<std::int32_t>(-phase_tap_shift(dims[i], ph[i], j[i]));
          flat = flat * p3.kernel[i] + phase_tap(dims[i], ph[i], j[i]);
        }
        t.weight_tap = static_cast<std::int32_t>(flat);
        taps.push_back(t);
      }
  return taps;
}

// One phase combination of a transposed convolution (weight [C_in, C_out/g, k...]): column P[d] is
// q = q_begin + P[d] of phase ph[d]. Its columns and taps may be empty; the caller skips those.
inline GemmConvParams make_phase_desc(const ConvProblem& p3, const PhaseDim dims[3], const std::int64_t ph[3],
                                    std::int64_t tap_count, KOrder order, std::int64_t tile_rows) {
  GemmConvParams d;
  fill_common(d, p3);
  d.taps = tap_count;
  for (int i = 0; i < 3; ++i) {
    const PhaseRange range = phase_positions(dims[i], ph[i]);
    d.col_extent[i] = range.count;
    d.base_scale[i] = 1;
    d.base_offset[i] = range.q_begin;
    d.out_scale[i] = dims[i].stride;
    d.out_offset[i] = phase_position(dims[i], ph[i], range.q_begin);
  }
  const std::int64_t kernel_volume = p3.kernel_volume();
  d.w_row_stride = kernel_volume;
  d.w_channel_stride = d.rows * kernel_volume;
  d.w_group_stride = d.cin_per_group * d.w_channel_stride;
  d.tail = gap_to_next_tapped(dims[2], ph[2]) - 1;
  const std::int64_t first = first_tapped_position(dims[2]);
  d.lead = (d.col_extent[2] > 0 && d.out_offset[2] == first) ? first : 0;
  finish(d, order, tile_rows);
  return d;
}

// The k_table rows of a descriptor, chunk by chunk (chunks * kChunkRows entries).
inline std::vector<KEntry> make_k_table(const GemmConvParams& d, const std::vector<GemmTap>& taps) {
  std::vector<KEntry> table;
  table.reserve(static_cast<std::size_t>(d.chunks * kChunkRows));
  for (std::int64_t j = 0; j < d.chunks; ++j)
    for (std::int64_t r = 0; r < kChunkRows; ++r) table.push_back(k_entry(d, taps.data(), j, r));
  return table;
}

}  // namespace kbench::gpu::conv::igemm
