#pragma once
// Block tiles and math policies of the implicit-GEMM kernel, visible to host code so the launch can
// size shared memory and grids without including device code.
//
// A block has WARPS_M x WARPS_N warps; each warp computes 16*MFRAG rows x 64 columns:
//   FFMA: lanes as 4 (rows) x 8 (columns), each thread 4*MFRAG rows x 8 columns of FMAs;
//   TF32 mma.sync m16n8k8: MFRAG x 8 fragments of 16 x 8.
// Shared-memory rows are padded by 8 floats: the fragment reads (rows tig, tig+4; columns gid) and
// the epilogue's float2 stores then hit 32 distinct banks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda/implicit_gemm/igemm_index.hpp"

namespace kbench::gpu::conv::igemm {

// The packed-A layout a kernel reads (igemm_index.hpp): fragments for the tensor-core maths on
// tiles that take them (Tile::kFragmentA), else k_major.
KBENCH_HD constexpr ALayout a_layout_of(GemmMath m, bool tile_takes_fragments) {
  return m != GemmMath::ffma && tile_takes_fragments ? ALayout::mma_fragments : ALayout::k_major;
}

inline std::string to_string(GemmMath m) {
  switch (m) {
    case GemmMath::ffma: return "ffma";
    case GemmMath::tf32: return "tf32";
    case GemmMath::tf32x3: return "3xtf32";
  }
  return "?";
}

template <int WARPS_M, int MFRAG, int WARPS_N, int MIN_BLOCKS = 1, bool FRAGMENT_A = true>
struct Tile {
  // The tensor-core maths read A in the mma_fragments layout (one 16-byte load per fragment), except
  // where that costs spills: the 96x256 tile under its two-blocks register budget (12 local-memory
  // operations in the main loop, against 4 bytes outside it with k_major; docs/kernels/implicit_gemm.md).
  static constexpr bool kFragmentA = FRAGMENT_A;
  // Blocks per SM the registers must allow under the tf32 math (__launch_bounds__): two wide blocks,
  // so one computes while the other loads its patch, fit in 128 registers (8 bytes of spill outside
  // the main loop); 3xTF32 and FFMA would spill hundreds of bytes there and run one 8-warp block.
  static constexpr int kMinBlocksTf32 = MIN_BLOCKS;
  static constexpr int kWarpsM = WARPS_M;
  static constexpr int kWarpsN = WARPS_N;
  static constexpr int kMFrag = MFRAG;
  static constexpr int kThreads = 32 * WARPS_M * WARPS_N;
  static constexpr int kWarpRows = 16 * MFRAG;
  static constexpr int kBM = WARPS_M * kWarpRows;
  static constexpr int kBN = WARPS_N * 64;
  static constexpr int kBK = kChunkRows;
  static constexpr int kPad = 8;
  static constexpr int kAStride = kBM + kPad;
  static constexpr int kBStride = kBN + kPad;
  static constexpr int kCStride = kBN + kPad;
  static constexpr int kStages = 3;
  static constexpr bool kResidentA = false;  // see Tile128Resident
  static constexpr int kStagingFloatsPerWarp = 0;
  static constexpr bool kWgmma = false;  // see TileWgmma
  // B loader: each thread keeps one column for the whole reduction.
  static constexpr int kRowsPerPass = kThreads / kBN;
  static constexpr int kBLoads = kBK / kRowsPerPass;
  // A loader: the chunk's BK x BM packed floats as 16-byte vectors; the last pass may be partial
  // (96 x 256: 384 vectors over 256 threads), see a_load_valid.
  static constexpr int kAVectors = kBK * kBM / 4;
  static constexpr int kALoads = (kAVectors + kThreads - 1) / kThreads;
  static_assert(kThreads % kBN == 0, "each thread loads one fixed column of B");
  static_assert(kBK % kRowsPerPass == 0, "B rows split evenly over the passes");
  static_assert(kBM % 32 == 0, "row padding keeps fragment reads conflict-free only for BM = 32j");
};

using Tile64 = Tile<2, 2, 2>;  // 64 x 128, 128 threads (problem 77: M = 64)
using Tile96 = Tile<2, 3, 2>;  // 96 x 128, 128 threads
// 128 x 256, 512 threads (16 warps at <= 128 registers: one block fills an SM). 256 columns halve
// the packed-A traffic from L2 per output against 128 (problem 76: A is 98 KB per block; with 128
// columns, 8.6 GB of L2 reads beside the 8.6 GB input).
using Tile128 = Tile<4, 2, 4>;
// 128 x 256 with A resident (ASchedule::resident, igemm_resident_kernel.cuh): the block's rows of A
// stay in shared memory for all its column tiles, so the pipeline carries only B and has room for
// five stages (four 16 KB chunks of B in flight per SM against three stages' two: the loads of a
// memory-bound GEMM need that much in flight to cover DRAM latency with one block per SM).
// Its epilogue drains C warp by warp through 8 staging rows of 64 columns per warp, padded to 72
// floats so the 8-byte fragment stores hit distinct banks per half-warp (tested).
struct Tile128Resident : Tile128 {
  static constexpr int kStages = 5;
  static constexpr bool kResidentA = true;
  static constexpr int kStagingStride = 72;
  static constexpr int kStagingFloatsPerWarp = 8 * kStagingStride;
};
// The input_patch order's tiles: 256 columns, so each packed-A chunk fetched from L2 serves twice
// the columns (problem 50: A is 141 KB per block, more than its patch) and the patch rows shared by
// consecutive output rows are loaded once for more of them.
using Tile64W = Tile<2, 2, 4, 2>;         // 64 x 256, 256 threads, two blocks per SM
using Tile96W = Tile<2, 3, 4, 2, false>;  // 96 x 256, 256 threads, two blocks per SM, k_major A (problem 50)

// The wgmma tile (igemm_wgmma_kernel.cuh; input_patch order, tensor-core maths, sm_90a): 96 rows
// (output channels: the instruction's N) x 256 columns, 256 threads = two warpgroups of 128 columns,
// each column block of 64 one m64n96k8 product per k-step, A (the input) from the patch through
// registers, B (the weights) read by the tensor core from the chunk's stage in the wgmma_cores
// layout (dense: its 128-byte core matrices need no padding). C tile rows padded by 4 floats: the
// accumulator stores (rows 2 tig apart, columns gid) then hit 32 distinct banks (tested).
struct TileWgmma {
  static constexpr bool kFragmentA = false;
  static constexpr int kMinBlocksTf32 = 2;
  static constexpr int kWarpgroups = 2;
  static constexpr int kThreads = 128 * kWarpgroups;
  static constexpr int kWarpgroupColumns = 128;
  static constexpr int kMTiles = kWarpgroupColumns / 64;  // m64 products per warpgroup and k-step
  static constexpr int kBM = kWgmmaRows;
  static constexpr int kBN = kWarpgroups * kWarpgroupColumns;
  static constexpr int kBK = kChunkRows;
  static constexpr int kAStride = kBM;  // a stage plane: kBK x kBM floats, wgmma_cores
  static constexpr int kBStride = 0;
  static constexpr int kCStride = kBN + 4;
  static constexpr int kStages = 3;
  static constexpr bool kResidentA = false;
  static constexpr int kStagingFloatsPerWarp = 0;
  static constexpr bool kWgmma = true;
  static constexpr int kRowsPerPass = kThreads / kBN;  // the epilogue: one column per thread
};

enum class TileKind { m64, m96, m128, m64_wide, m96_wide, m128_resident, m96_wgmma };

// The block tile for M = rows in a reduction order: 256 columns for input_patch, 128 for the
// gathered orders below 128 rows.
inline TileKind choose_tile(std::int64_t rows, KOrder order) {
  const bool wide = order == KOrder::input_patch;
  if (rows <= 64) return wide ? TileKind::m64_wide : TileKind::m64;
  if (rows <= 96) return wide ? TileKind::m96_wide : TileKind::m96;
  return TileKind::m128;
}

// The tile of a descriptor: choose_tile's, the resident one for ASchedule::resident, the wgmma one
// for MmaKind::wgmma.
inline TileKind choose_tile(const GemmConvParams& d) {
  if (d.mma == MmaKind::wgmma) return TileKind::m96_wgmma;
  return d.a_schedule == ASchedule::resident ? TileKind::m128_resident : choose_tile(d.rows, d.order);
}

// Calls f(Tile{}, std::integral_constant<KOrder, ORDER>{}) for the kernel instance that runs
// (tile, order): the narrow tiles with the gathered orders, the 256-column ones (and 128x256) with
// input_patch, as choose_tile pairs them, and the resident-A 128x256 with channel_blocks; 10
// instances per math. Host code (the CUDA entry points, the CPU emulation tests) dispatches through
// this one table. The wgmma tile has its own kernel and entry point (igemm_wgmma.cu, built for sm_90a).
template <class F>
void with_tile(TileKind tile, KOrder order, F&& f) {
  using Patch = std::integral_constant<KOrder, KOrder::input_patch>;
  using Blocks = std::integral_constant<KOrder, KOrder::channel_blocks>;
  using Table = std::integral_constant<KOrder, KOrder::k_table>;
  if (order == KOrder::input_patch) {
    switch (tile) {
      case TileKind::m64_wide: return f(Tile64W{}, Patch{});
      case TileKind::m96_wide: return f(Tile96W{}, Patch{});
      case TileKind::m128: return f(Tile128{}, Patch{});
      default: break;
    }
    throw std::logic_error("implicit GEMM: input_patch has no instance for this tile");
  }
  if (tile == TileKind::m96_wgmma) throw std::logic_error("implicit GEMM: the wgmma tile has its own kernel");
  if (tile == TileKind::m128_resident) {
    if (order == KOrder::channel_blocks) return f(Tile128Resident{}, Blocks{});
    throw std::logic_error("implicit GEMM: resident A runs the channel_blocks order only");
  }
  const auto pick = [&](auto tile_tag) {
    if (order == KOrder::channel_blocks) return f(tile_tag, Blocks{});
    return f(tile_tag, Table{});
  };
  switch (tile) {
    case TileKind::m64: return pick(Tile64{});
    case TileKind::m96: return pick(Tile96{});
    case TileKind::m128: return pick(Tile128{});
    default: break;
  }
  throw std::logic_error("implicit GEMM: a gathered order has no instance for a wide tile");
}

struct TileFacts {
  int bm = 0, bn = 0, threads = 0, stages = 0;
  int a_stride = 0, b_stride = 0, c_stride = 0;
  bool fragment_a = false;
  bool resident_a = false;
  int staging_floats_per_warp = 0;
  bool wgmma = false;
};

template <class T>
constexpr TileFacts facts_of() {
  return TileFacts{T::kBM,      T::kBN,      T::kThreads,   T::kStages,    T::kAStride,
                   T::kBStride, T::kCStride, T::kFragmentA, T::kResidentA, T::kStagingFloatsPerWarp,
                   T::kWgmma};
}

inline TileFacts tile_facts(TileKind k) {
  switch (k) {
    case TileKind::m64: return facts_of<Tile64>();
    case TileKind::m96: return facts_of<Tile96>();
    case TileKind::m128: return facts_of<Tile128>();
    case TileKind::m64_wide: return facts_of<Tile64W>();
    case TileKind::m96_wide: return facts_of<Tile96W>();
    case TileKind::m128_resident: return facts_of<Tile128Resident>();
    case TileKind::m96_wgmma: return facts_of<TileWgmma>();
  }
  return {};
}

// The packed-A layout the kernel for descriptor d and math m reads.
inline ALayout a_layout_for(const GemmConvParams& d, GemmMath m) {
  if (d.mma == MmaKind::wgmma) return ALayout::wgmma_cores;
  return a_layout_of(m, tile_facts(choose_tile(d)).fragment_a);
}

// Shared memory: the tap list (channel_blocks), the k table (k_table) or the per-k patch offsets
// (input_patch); then the input patch (input_patch only) and the pipeline stages. The epilogue
// reuses the space after the prefix (patch and stages) for the C tile. Resident A: the prefix, all
// of the block's A chunks, the B-only stages, then each warp's epilogue staging rows.
struct SmemLayout {
  std::size_t prefix_bytes = 0;
  std::size_t patch_bytes = 0;
  std::size_t resident_a_bytes = 0;  // resident A only
  std::size_t stage_floats = 0;
  std::size_t total_bytes = 0;
};

KBENCH_HD std::size_t smem_prefix_bytes(const GemmConvParams& d) {
  const auto k_rows = static_cast<std::size_t>(d.chunks * kChunkRows);
  std::size_t raw = 0;
  switch (d.order) {
    case KOrder::channel_blocks: raw = static_cast<std::size_t>(d.taps) * sizeof(GemmTap); break;
    case KOrder::k_table: raw = k_rows * sizeof(KEntry); break;
    case KOrder::input_patch: raw = k_rows * sizeof(std::int32_t); break;
  }
  return (raw + 15) / 16 * 16;
}

KBENCH_HD std::size_t smem_patch_bytes(const GemmConvParams& d) {
  return d.order == KOrder::input_patch ? static_cast<std::size_t>(d.patch.floats) * sizeof(float) : 0;
}

inline SmemLayout smem_layout(const GemmConvParams& d) {
  const TileFacts f = tile_facts(choose_tile(d));
  SmemLayout s;
  s.prefix_bytes = smem_prefix_bytes(d);
  s.patch_bytes = smem_patch_bytes(d);
  if (f.resident_a) {
    s.resident_a_bytes = static_cast<std::size_t>(d.chunks) * kChunkRows * f.a_stride * sizeof(float);
    s.stage_floats = static_cast<std::size_t>(kChunkRows) * f.b_stride;
    const std::size_t staging = static_cast<std::size_t>(f.threads / 32) * f.staging_floats_per_warp * sizeof(float);
    s.total_bytes = s.prefix_bytes + s.resident_a_bytes + s.stage_floats * f.stages * sizeof(float) + staging;
    return s;
  }
  // input_patch stages only A (wgmma: d.a_planes planes of it): B is read from the patch.
  const std::size_t b_stride = d.order == KOrder::input_patch ? 0 : static_cast<std::size_t>(f.b_stride);
  s.stage_floats =
      static_cast<std::size_t>(kChunkRows) * (static_cast<std::size_t>(f.a_stride) * d.a_planes + b_stride);
  const std::size_t pipeline = s.stage_floats * static_cast<std::size_t>(f.stages) * sizeof(float);
  const std::size_t c_tile = static_cast<std::size_t>(f.bm) * f.c_stride * sizeof(float);
  s.total_bytes = s.prefix_bytes + std::max(s.patch_bytes + pipeline, c_tile);
  return s;
}

// The launch grid of a descriptor: x = column tiles (input_patch: per image, tiles never straddle
// two; resident A: at most resident_blocks persistent blocks walking them) plus any fill-only
// blocks, y = row tiles, z = groups x reduction splits (split z / groups, group z % groups).
struct GemmGrid {
  std::int64_t x = 1, y = 1, z = 1;
};

inline GemmGrid gemm_grid(const GemmConvParams& d) {
  const TileFacts f = tile_facts(choose_tile(d));
  GemmGrid g;
  g.x = d.order == KOrder::input_patch ? d.batch * d.patch.tiles_per_image : (d.columns + f.bn - 1) / f.bn;
  if (f.resident_a && d.resident_blocks > 0) g.x = std::min(g.x, d.resident_blocks);
  g.x += d.fill_blocks;
  g.y = d.rows_padded / f.bm;
  g.z = d.groups * d.splits;
  return g;
}

// Resident A: one persistent block per SM (its shared memory allows no second), shared among the
// grid's row tiles and groups; `sms` is the device's SM count.
inline std::int64_t resident_blocks_per_row_tile(const GemmConvParams& d, int sms) {
  const GemmGrid g = gemm_grid(d);
  return std::max<std::int64_t>(1, sms / (g.y * g.z));
}

// Hopper's opt-in limit per block (227 KB).
inline constexpr std::size_t kMaxSmemBytes = 232448;

}  // namespace kbench::gpu::conv::igemm
