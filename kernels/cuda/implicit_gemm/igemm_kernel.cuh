#pragma once
// The implicit-GEMM convolution kernel (forward convolutions and the phase GEMMs of transposed ones).
//
// Block (BM x BN tile of a group): a 3-stage cp.async pipeline over reduction chunks of 16 rows (all
// of them, or under split-K one split's range of them: grid z = groups x splits, igemm_split_index.hpp).
//   A chunk: BK x BM floats of packed A (pack_a_kernel in igemm.cu), 16-byte copies, no masks.
//   B chunk: BK x BN input elements gathered with 4-byte zero-filling copies; each thread owns one
//            column for the whole reduction and decoded it once (ColumnState), so per element it only
//            adds a row offset (channel_blocks) or a table delta (k_table) and checks the bounds.
//            input_patch instead copies the block's input patch into shared memory once (16-byte copies,
//            zeros for the padding) and reads B from it in the math loop (igemm_patch_index.hpp).
// Math: FFMA (thread tile 4*MFRAG x 8, float4 fragment loads) or mma.sync m16n8k8 TF32 (1 or 3 products).
// Epilogue: accumulators -> shared C tile -> each thread stores its column (coalesced along the output
// row), bias added, and for transposed phases the owned untapped neighbours written with the bias
// (igemm_output_store.cuh); under split-K the tile goes to the workspace instead, unbiased, for
// igemm_split_reduce.cuh to sum.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm_output_store.cuh"
#include "cuda/implicit_gemm/igemm_patch_index.hpp"
#include "cuda/implicit_gemm/igemm_split_index.hpp"
#include "cuda/implicit_gemm/igemm_tile_index.hpp"
#include "cuda/transposed/zero_fill_kernel.cuh"

namespace kbench::gpu::conv::igemm {

// Which chunk the B loader fills next, kept incrementally (chunks are loaded in order).
struct ChunkCursor {
  int tap = 0;            // channel_blocks: tap of the chunk
  int channel_block = 0;  // channel_blocks: channel block of the chunk
};

// The cursor at chunk `chunk` (channel_blocks: chunk = channel block x taps + tap).
__device__ __forceinline__ ChunkCursor cursor_at(const GemmConvParams& d, int chunk) {
  return ChunkCursor{static_cast<int>(chunk % d.taps), static_cast<int>(chunk / d.taps)};
}

template <class T, GemmMath MATH>
struct Accumulators;

template <class T>
struct Accumulators<T, GemmMath::ffma> {
  float v[4 * T::kMFrag][8];
};
template <class T>
struct Accumulators<T, GemmMath::tf32> {
  float v[T::kMFrag][8][4];
};
template <class T>
struct Accumulators<T, GemmMath::tf32x3> {
  float v[T::kMFrag][8][4];
};

template <class T, GemmMath MATH>
__device__ __forceinline__ void zero_accumulators(Accumulators<T, MATH>& acc) {
  if constexpr (MATH == GemmMath::ffma) {
#pragma unroll
    for (int r = 0; r < 4 * T::kMFrag; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c) acc.v[r][c] = 0.0f;
  } else {
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i)
#pragma unroll
      for (int f = 0; f < 8; ++f)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc.v[i][f][e] = 0.0f;
  }
}

// ---------------------------------------------------------------- where B comes from
// Every shared-memory position below comes from igemm_tile_index.hpp (tested on the CPU); with the
// loop indices unrolled they fold to constants plus the lane's base.

// B staged per chunk as Bs[k][n] (channel_blocks and k_table).
template <class T>
struct StagedB {
  const float* Bs;

  // FFMA: the 8 columns of the lane's thread tile at reduction row k (two float4 loads).
  __device__ __forceinline__ void ffma_row(int k, int warp, int lane, float (&b)[8]) const {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const TileCoord at = ffma_coord<T>(warp, lane, 0, 4 * h);  // columns at.col .. at.col + 3
      const float4 v = *reinterpret_cast<const float4*>(Bs + k * T::kBStride + at.col);
      b[4 * h + 0] = v.x;
      b[4 * h + 1] = v.y;
      b[4 * h + 2] = v.z;
      b[4 * h + 3] = v.w;
    }
  }
  // mma: element e of n-fragment f's B fragment at k-step ks.
  __device__ __forceinline__ float mma_element(int ks, int f, int e, int warp, int lane) const {
    const TileCoord at = mma_b_coord<T>(warp, lane, f, e, ks);  // {k, n}
    return Bs[at.row * T::kBStride + at.col];
  }
};

// B read from the block's input patch (input_patch, igemm_patch_index.hpp): B[k][n] = patch[koff[k] +
// noff[n]], with koff the chunk's slice of the per-k offsets and noff the patch offsets of the 8
// columns this lane reads (its FFMA thread-tile columns, or its mma n-fragments' column). MASKED:
// the reduction's last, partial chunk, whose rows at or past `valid_rows` read as zeros (their A
// rows are zero too, but a zero times a non-finite input would not be).
template <class T, bool MASKED>
struct PatchB {
  const char* patch;
  const std::int32_t* koff;  // bytes
  std::int32_t noff[8];      // bytes
  int valid_rows;

  // Offsets are kept in bytes so each element costs one add and the shared load.
  __device__ __forceinline__ float at(int k, int column) const {
    const float v = *reinterpret_cast<const float*>(patch + (koff[k] + noff[column]));
    if constexpr (MASKED) return k < valid_rows ? v : 0.0f;
    return v;
  }
  __device__ __forceinline__ void ffma_row(int k, int, int, float (&b)[8]) const {
#pragma unroll
    for (int c = 0; c < 8; ++c) b[c] = at(k, c);
  }
  __device__ __forceinline__ float mma_element(int ks, int f, int e, int, int lane) const {
    return at(ks + lane % 4 + 4 * e, f);  // the k of mma_b_coord; its column is noff[f]
  }
};

// A PatchB over `patch` for the chunk whose k offsets start at `koff`.
template <class T, bool MASKED>
__device__ __forceinline__ PatchB<T, MASKED> patch_b(const float* patch, const std::int32_t* koff,
                                                     const std::int32_t (&noff)[8], int valid_rows) {
  PatchB<T, MASKED> b{reinterpret_cast<const char*>(patch), koff, {}, valid_rows};
#pragma unroll
  for (int c = 0; c < 8; ++c) b.noff[c] = noff[c];
  return b;
}

// The patch offsets of the 8 columns a lane reads (see PatchB), in bytes, for the block's tile.
template <class T, GemmMath MATH>
__device__ __forceinline__ void patch_column_offsets(const GemmConvParams& d, const PatchTile& tile, int warp, int lane,
                                                     std::int32_t (&noff)[8]) {
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    const int col =
        MATH == GemmMath::ffma ? ffma_coord<T>(warp, lane, 0, c).col : mma_b_coord<T>(warp, lane, c, 0, 0).col;
    noff[c] = patch_column(d, tile, col, T::kBN).noff * static_cast<std::int32_t>(sizeof(float));
  }
}

// Copies the block's input patch into shared memory: 16-byte cp.async copies for input rows, zeros
// for the padding (patch_vector_source, split so a warp decodes each of its rows once and its lanes
// walk the row's vectors). The copies join the caller's next cp.async group; the zeros need a barrier.
template <class T>
__device__ __forceinline__ void load_patch(const GemmConvParams& d, const PatchTile& tile, std::int64_t group,
                                           const float* __restrict__ x, float* patch, int warp, int lane) {
  const int vectors_per_row = d.patch.stride / 4;
  const int rows = static_cast<int>(d.cin_per_group) * d.patch.rows;
  for (int row = warp; row < rows; row += T::kThreads / 32) {
    const std::int64_t base = patch_row_source(d, tile, group, row / d.patch.rows, row % d.patch.rows);
    float* dst = patch + static_cast<std::int64_t>(row) * d.patch.stride;
    for (int v = lane; v < vectors_per_row; v += 32) {
      const int col = patch_vector_column(d, v);
      if (base >= 0 && col >= 0) {
        cp_async_16(dst + 4 * v, x + base + col);
      } else {
        *reinterpret_cast<float4*>(dst + 4 * v) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      }
    }
  }
}

// ---------------------------------------------------------------- loaders of one chunk

// A chunk of packed A into As (16-byte copies, no masks: packed A is zero-padded), in the layout the
// tile and math read.
template <class T, GemmMath MATH>
__device__ __forceinline__ void load_a_chunk(const GemmConvParams& d, std::int64_t group, int chunk, std::int64_t m0,
                                             const float* __restrict__ a_packed, float* As, int tid) {
#pragma unroll
  for (int i = 0; i < T::kALoads; ++i) {
    if (T::kAVectors % T::kThreads != 0 && !a_load_valid<T>(tid, i)) continue;
    if constexpr (a_layout_of(MATH, T::kFragmentA) == ALayout::k_major) {
      const TileCoord at = a_load_slot<T>(tid, i);
      cp_async_16(As + at.row * T::kAStride + at.col, a_packed + packed_a_index(d, group, chunk, at.row, m0 + at.col));
    } else {
      const FragmentLoad at = a_fragment_load<T>(tid, i);
      cp_async_16(As + at.dst, a_packed + packed_a_fragment_index(d, group, chunk, at.step, m0 / 16) + at.offset);
    }
  }
}

// The channel_blocks order's B chunk at `cursor` into Bs, for the thread's column (cs, x_column:
// its input pointer) and rows row_group + i * kRowsPerPass; then the cursor moves to the next chunk.
// Per element: one 64-bit add (channel_step), one compare and a zero-filling 4-byte copy.
template <class T>
__device__ __forceinline__ void load_b_channel_blocks(const GemmConvParams& d, const GemmTap* s_taps, ChunkCursor& cursor,
                                                      const ColumnState& cs, const float* x_column,
                                                      std::int64_t channel_step, const float* __restrict__ x, float* Bs,
                                                      int tid, int col, int row_group) {
  const GemmTap tap = s_taps[cursor.tap];
  const bool inside = tap_in_input(d, cs, tap.offset);
  const int first_channel = cursor.channel_block * T::kBK + row_group;
  const int channels_left = static_cast<int>(d.cin_per_group) - first_channel;  // may be <= 0
  const float* src = x_column + spatial_offset(d, tap.offset) + static_cast<std::int64_t>(first_channel) * d.in_volume;
#pragma unroll
  for (int i = 0; i < T::kBLoads; ++i) {
    // Row r = b_load_slot(tid, i).row = row_group + i * kRowsPerPass: channel first_channel + i * kRowsPerPass.
    const bool pred = inside && i * T::kRowsPerPass < channels_left;
    cp_async_4(Bs + b_load_slot<T>(tid, i).row * T::kBStride + col, pred ? src : x, pred);
    src += channel_step;
  }
  if (++cursor.tap == static_cast<int>(d.taps)) {
    cursor.tap = 0;
    ++cursor.channel_block;
  }
}

// ---------------------------------------------------------------- math on one chunk

template <class T, class B>
__device__ __forceinline__ void chunk_ffma(Accumulators<T, GemmMath::ffma>& acc, const float* As, const B& bsrc,
                                           int warp, int lane) {
#pragma unroll
  for (int k = 0; k < T::kBK; ++k) {
    float a[4 * T::kMFrag], b[8];
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i) {
      const TileCoord at = ffma_coord<T>(warp, lane, 4 * i, 0);  // rows at.row .. at.row + 3
      const float4 v = *reinterpret_cast<const float4*>(As + k * T::kAStride + at.row);
      a[4 * i + 0] = v.x;
      a[4 * i + 1] = v.y;
      a[4 * i + 2] = v.z;
      a[4 * i + 3] = v.w;
    }
    bsrc.ffma_row(k, warp, lane, b);
#pragma unroll
    for (int r = 0; r < 4 * T::kMFrag; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c) acc.v[r][c] = fmaf(a[r], b[c], acc.v[r][c]);
  }
}

// The products of one n-fragment f with the warp's MFRAG A fragments, given its two B elements.
// B is handed over as raw fp32 bits (the tensor core truncates them to TF32, tf32_bits.hpp); for
// tf32x3 it is split into big part and remainder, as A was (a, a_small).
template <class T, GemmMath MATH>
__device__ __forceinline__ void mma_b_column(Accumulators<T, MATH>& acc, const std::uint32_t (&a)[T::kMFrag][4],
                                             const std::uint32_t (&a_small)[T::kMFrag][4], int f, float b0, float b1) {
  if constexpr (MATH == GemmMath::tf32x3) {
    const Tf32Split s0 = split_tf32(b0), s1 = split_tf32(b1);
    const std::uint32_t big[2] = {s0.big, s1.big};
    const std::uint32_t small[2] = {s0.small, s1.small};
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i) {
      // Small products first, so they are not absorbed by the big one's rounding.
      mma_tf32(acc.v[i][f], a_small[i], big);
      mma_tf32(acc.v[i][f], a[i], small);
      mma_tf32(acc.v[i][f], a[i], big);
    }
  } else {
    const std::uint32_t raw[2] = {float_bits(b0), float_bits(b1)};
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i) mma_tf32(acc.v[i][f], a[i], raw);
  }
}

// As is in the mma_fragments layout (k_major for tiles without kFragmentA). For tf32 it holds TF32
// values already (packed A is rounded to nearest once per run); for tf32x3 it holds the fp32
// weights, split here like B: one plane of A in shared memory and in L2 traffic instead of two, for
// three instructions per A element. B goes to mma_b_column.
template <class T, GemmMath MATH, class B>
__device__ __forceinline__ void chunk_mma(Accumulators<T, MATH>& acc, const float* As, const B& bsrc, int warp,
                                          int lane) {
#pragma unroll
  for (int ks = 0; ks < T::kBK; ks += 8) {
    std::uint32_t a[T::kMFrag][4];
    std::uint32_t a_small[T::kMFrag][4];
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i) {
      float v[4];
      if constexpr (T::kFragmentA) {
        // The lane's four fragment elements, adjacent in the mma_fragments layout: one 16-byte load.
        const float4 v4 = *reinterpret_cast<const float4*>(As + mma_a_fragment_offset<T>(warp, lane, i, ks));
        v[0] = v4.x;
        v[1] = v4.y;
        v[2] = v4.z;
        v[3] = v4.w;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const TileCoord at = mma_a_coord<T>(warp, lane, i, e, ks);  // {m, k}, k_major layout
          v[e] = As[at.col * T::kAStride + at.row];
        }
      }
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if constexpr (MATH == GemmMath::tf32x3) {
          const Tf32Split s = split_tf32(v[e]);
          a[i][e] = s.big;
          a_small[i][e] = s.small;
        } else {
          a[i][e] = float_bits(v[e]);
        }
      }
    }
#pragma unroll
    for (int f = 0; f < 8; ++f)
      mma_b_column<T, MATH>(acc, a, a_small, f, bsrc.mma_element(ks, f, 0, warp, lane),
                            bsrc.mma_element(ks, f, 1, warp, lane));
  }
}

template <class T, GemmMath MATH, class B>
__device__ __forceinline__ void chunk_math(Accumulators<T, MATH>& acc, const float* As, const B& bsrc, int warp,
                                           int lane) {
  if constexpr (MATH == GemmMath::ffma) {
    chunk_ffma<T>(acc, As, bsrc, warp, lane);
  } else {
    chunk_mma<T, MATH>(acc, As, bsrc, warp, lane);
  }
}

// Accumulators into the shared C tile [BM][kCStride]: float4 (FFMA) or float2 (mma) stores.
template <class T, GemmMath MATH>
__device__ __forceinline__ void stage_accumulators(const Accumulators<T, MATH>& acc, float* Cs, int warp, int lane) {
  if constexpr (MATH == GemmMath::ffma) {
#pragma unroll
    for (int r = 0; r < 4 * T::kMFrag; ++r)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const TileCoord at = ffma_coord<T>(warp, lane, r, 4 * h);
        const float* v = &acc.v[r][4 * h];
        *reinterpret_cast<float4*>(Cs + at.row * T::kCStride + at.col) = make_float4(v[0], v[1], v[2], v[3]);
      }
  } else {
#pragma unroll
    for (int i = 0; i < T::kMFrag; ++i)
#pragma unroll
      for (int f = 0; f < 8; ++f)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const TileCoord at = mma_c_coord<T>(warp, lane, i, f, 2 * half);  // elements 2*half, 2*half + 1
          *reinterpret_cast<float2*>(Cs + at.row * T::kCStride + at.col) =
              make_float2(acc.v[i][f][2 * half], acc.v[i][f][2 * half + 1]);
        }
  }
}

// The epilogue's stores: the thread's column `col` of the shared C tile (rows row_group, +
// kRowsPerPass, ...) plus the bias to GEMM column `column` of the output (coalesced along output
// rows), and for transposed phases the untapped neighbours it owns (tail, lead), with the bias.
template <class T>
__device__ __forceinline__ void store_c_column(const GemmConvParams& d, std::int64_t group, std::int64_t column,
                                               std::int64_t m0, int col, int row_group, const float* Cs,
                                               const float* __restrict__ bias, float* __restrict__ y) {
  const ColumnStores stores = column_stores(d, group, column);
  if (!stores.os.valid) return;
  for (int r = row_group; r < T::kBM; r += T::kRowsPerPass) {
    const std::int64_t m = m0 + r;
    if (m >= d.rows) break;
    store_output(d, stores, m, Cs[r * T::kCStride + col], bias != nullptr ? bias[group * d.rows + m] : 0.0f, y);
  }
}

// Split-K's epilogue: the same column of the C tile, unbiased, to split `split`'s partial tile in
// the workspace (the reduction adds the bias once).
template <class T>
__device__ __forceinline__ void store_partial_column(const GemmConvParams& d, std::int64_t split, std::int64_t group,
                                                     std::int64_t column, std::int64_t m0, int col, int row_group,
                                                     const float* Cs, float* __restrict__ partials) {
  if (column >= d.columns) return;
  for (int r = row_group; r < T::kBM; r += T::kRowsPerPass) {
    const std::int64_t m = m0 + r;
    if (m >= d.rows) break;
    partials[partial_index(d, split, group, m, column)] = Cs[r * T::kCStride + col];
  }
}

// ---------------------------------------------------------------- the kernel

template <class T, GemmMath MATH, KOrder ORDER>
__device__ __forceinline__ void igemm_conv_body(const GemmConvParams& d, const float* __restrict__ x,
                                                const float* __restrict__ a_packed, const float* __restrict__ bias,
                                                float* __restrict__ y, const GemmTap* __restrict__ taps_global,
                                                const KEntry* __restrict__ table_global,
                                                const std::int32_t* __restrict__ koffs_global, const ZeroFillParams& zero,
                                                float* __restrict__ partials) {
  constexpr bool kPatch = ORDER == KOrder::input_patch;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32, warp = tid / 32;
  const std::int64_t group = group_of_z(d, blockIdx.z);
  const std::int64_t split = split_of_z(d, blockIdx.z);
  const std::int64_t m0 = static_cast<std::int64_t>(blockIdx.y) * T::kBM;
  const int chunks = static_cast<int>(d.chunks);
  // The chunks this block reduces: all of them, or its split's range.
  const ChunkRange range = split_chunk_range(d, split);
  const int first = static_cast<int>(range.begin), end = static_cast<int>(range.end);

  // The fill-only blocks after the column tiles (d.fill_blocks) only do their share of the zero fill.
  const bool fill_only = blockIdx.x >= gridDim.x - d.fill_blocks;

  // Tap list, k table or patch offsets, once per block.
  auto* s_taps = reinterpret_cast<GemmTap*>(smem);
  auto* s_table = reinterpret_cast<KEntry*>(smem);
  auto* s_koffs = reinterpret_cast<std::int32_t*>(smem);
  if constexpr (ORDER == KOrder::channel_blocks) {
    for (int i = tid; i < static_cast<int>(d.taps); i += T::kThreads) s_taps[i] = taps_global[i];
  } else if constexpr (ORDER == KOrder::k_table) {
    for (int i = tid; i < chunks * T::kBK; i += T::kThreads) s_table[i] = table_global[i];
  } else {
    constexpr auto kBytes = static_cast<std::int32_t>(sizeof(float));
    for (int i = tid; i < chunks * T::kBK; i += T::kThreads) s_koffs[i] = koffs_global[i] * kBytes;
  }
  float* body = reinterpret_cast<float*>(smem + smem_prefix_bytes(d));  // patch, then stages; later the C tile
  float* patch = body;
  float* stages = body + (kPatch ? d.patch.floats : 0);
  constexpr int kAPlane = T::kBK * T::kAStride;
  constexpr int kStageFloats = kAPlane + (kPatch ? 0 : T::kBK * T::kBStride);

  // The block's columns: a run of BN GEMM columns (gathered orders), or BN positions of one image (patch).
  const int col = b_load_slot<T>(tid, 0).col;
  const int row_group = b_load_slot<T>(tid, 0).row;
  PatchTile tile;
  std::int64_t column = static_cast<std::int64_t>(blockIdx.x) * T::kBN + col;
  if constexpr (kPatch) {
    tile = patch_tile(d, blockIdx.x, T::kBN);
    column = patch_column(d, tile, col, T::kBN).n;
    load_patch<T>(d, tile, group, x, patch, warp, lane);  // joins the first cp.async group below
  }
  __syncthreads();  // the tables are in place

  const ColumnState cs = column_state(d, group, column);
  ChunkCursor cursor = cursor_at(d, first);
  // Per B element the loaders below do one 64-bit add, one compare and the copy: the column's input
  // pointer and the channel step between a thread's loads are formed once here.
  const float* const x_column = x + cs.offset;
  const std::int64_t channel_step = static_cast<std::int64_t>(T::kRowsPerPass) * d.in_volume;

  const auto load_chunk = [&](int chunk, int stage) {
    float* As = stages + stage * kStageFloats;
    float* Bs = As + kAPlane;
    load_a_chunk<T, MATH>(d, group, chunk, m0, a_packed, As, tid);
    if constexpr (ORDER == KOrder::channel_blocks) {
      load_b_channel_blocks<T>(d, s_taps, cursor, cs, x_column, channel_step, x, Bs, tid, col, row_group);
    } else if constexpr (ORDER == KOrder::k_table) {
#pragma unroll
      for (int i = 0; i < T::kBLoads; ++i) {
        const int r = b_load_slot<T>(tid, i).row;
        const KEntry e = s_table[chunk * T::kBK + r];
        const bool pred = e.valid != 0 && tap_in_input(d, cs, e.offset);
        cp_async_4(Bs + r * T::kBStride + col, pred ? x_column + e.delta : x, pred);
      }
    }
  };

#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (first + s < end && !fill_only) load_chunk(first + s, s);
    cp_async_commit();
  }

  // Untapped planes and rows of a transposed convolution, every block's share (planes block,
  // block + blocks, ...): issued while the first chunks are in flight.
  if (zero.planes > 0) {
    const std::int64_t block =
        blockIdx.x + static_cast<std::int64_t>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
    const std::int64_t blocks = static_cast<std::int64_t>(gridDim.x) * gridDim.y * gridDim.z;
    zero_fill_planes(zero, bias, y, block, blocks);
  }
  if (fill_only) return;

  Accumulators<T, MATH> acc;
  zero_accumulators<T, MATH>(acc);

  std::int32_t noff[8] = {};
  if constexpr (kPatch) patch_column_offsets<T, MATH>(d, tile, warp, lane, noff);
  const int last_rows = static_cast<int>(d.cin_per_group * d.taps - (d.chunks - 1) * T::kBK);  // rows of the last chunk

  for (int chunk = first; chunk < end; ++chunk) {
    cp_async_wait<T::kStages - 2>();
    __syncthreads();  // chunk's copies (and the patch) visible to all; everyone is done with the stage reloaded next
    const int next = chunk + T::kStages - 1;
    if (next < end) load_chunk(next, (next - first) % T::kStages);
    cp_async_commit();
    const float* As = stages + ((chunk - first) % T::kStages) * kStageFloats;
    if constexpr (kPatch) {
      const std::int32_t* koff = s_koffs + chunk * T::kBK;
      if (chunk + 1 < chunks || last_rows == T::kBK) {
        chunk_math<T, MATH>(acc, As, patch_b<T, false>(patch, koff, noff, T::kBK), warp, lane);
      } else {
        chunk_math<T, MATH>(acc, As, patch_b<T, true>(patch, koff, noff, last_rows), warp, lane);
      }
    } else {
      chunk_math<T, MATH>(acc, As, StagedB<T>{As + kAPlane}, warp, lane);
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // pipeline drained: the patch and stages become the C tile

  float* Cs = body;
  stage_accumulators<T, MATH>(acc, Cs, warp, lane);
  __syncthreads();

  if (d.splits > 1) {
    store_partial_column<T>(d, split, group, column, m0, col, row_group, Cs, partials);
  } else {
    store_c_column<T>(d, group, column, m0, col, row_group, Cs, bias, y);
  }
}

// The kernel, with the register budget ptxas picks for one block of T::kThreads ...
template <class T, GemmMath MATH, KOrder ORDER>
__global__ void __launch_bounds__(T::kThreads)
    igemm_conv_kernel(const GemmConvParams d, const float* __restrict__ x, const float* __restrict__ a_packed,
                      const float* __restrict__ bias, float* __restrict__ y, const GemmTap* __restrict__ taps_global,
                      const KEntry* __restrict__ table_global, const std::int32_t* __restrict__ koffs_global,
                      const ZeroFillParams zero, float* __restrict__ partials) {
  igemm_conv_body<T, MATH, ORDER>(d, x, a_packed, bias, y, taps_global, table_global, koffs_global, zero, partials);
}

// ... or with at most 128 registers, so two blocks share an SM (Tile::kMinBlocksTf32).
template <class T, GemmMath MATH, KOrder ORDER>
__global__ void __launch_bounds__(T::kThreads, 2)
    igemm_conv_kernel_2_blocks(const GemmConvParams d, const float* __restrict__ x, const float* __restrict__ a_packed,
                               const float* __restrict__ bias, float* __restrict__ y,
                               const GemmTap* __restrict__ taps_global, const KEntry* __restrict__ table_global,
                               const std::int32_t* __restrict__ koffs_global, const ZeroFillParams zero,
                               float* __restrict__ partials) {
  igemm_conv_body<T, MATH, ORDER>(d, x, a_packed, bias, y, taps_global, table_global, koffs_global, zero, partials);
}

}  // namespace kbench::gpu::conv::igemm
