#pragma once
// The GEMM descriptor a forward implicit-GEMM choice runs: its reduction order (forced or the
// default), whether A stays resident in shared memory, and the wgmma variant's reshaping. Plain C++,
// unit-tested on the CPU (test_cuda_selection.cpp, test_cuda_index_igemm_patch.cpp,
// test_cuda_index_igemm_resident.cpp).
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm_patch_index.hpp"
#include "cuda/implicit_gemm/igemm_resident_index.hpp"
#include "cuda/common/kernel_choice.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

// A forward convolution's GEMM descriptor in one reduction order, and whether that order runs it.
struct ForwardGemm {
  igemm::GemmConvParams desc;
  Support support;
};

inline ForwardGemm forward_gemm_in(const ConvProblem& p3, igemm::KOrder order) {
  const igemm::TileFacts f = igemm::tile_facts(igemm::choose_tile(p3.out_channels_per_group(), order));
  ForwardGemm g{igemm::make_forward_params(p3, order, f.bm), {}};
  if (order == igemm::KOrder::input_patch) {
    const igemm::PatchParamsFit patch = igemm::make_patch_params(g.desc, igemm::forward_taps(p3), f.bn);
    g.desc.patch = patch.desc;
    g.support = patch.support;
  }
  return g;
}

// Whether A can stay resident for a (streamed) descriptor, or why not (igemm_resident_kernel.cuh): the
// channel_blocks order on the 128-row tile, with all of the block's A and the B stages in shared memory.
inline Support resident_support(const igemm::GemmConvParams& d) {
  if (d.order != igemm::KOrder::channel_blocks) return Support::no("resident A runs the channel_blocks order only");
  if (igemm::choose_tile(d.rows, d.order) != igemm::TileKind::m128)
    return Support::no(
        fmt::format("resident A needs more than 96 output channels per group (the 128x256 tile), not {}", d.rows));
  const std::int64_t tiles = igemm::column_tiles(d, igemm::Tile128Resident::kBN);
  // The kernel counts tiles and (tile, chunk) steps in 32 bits, a tile index going up to a grid's
  // width (< 65,536 persistent blocks) past the last.
  if (tiles * d.chunks + 65536 > 0x7fffffff)
    return Support::no("resident A: more than 2^31 (tile, chunk) steps for one block to walk");
  igemm::GemmConvParams r = d;
  r.a_schedule = igemm::ASchedule::resident;
  const igemm::SmemLayout s = igemm::smem_layout(r);
  if (s.total_bytes > igemm::kMaxSmemBytes)
    return Support::no(fmt::format("resident A: {} bytes of A and {} of pipeline exceed a block's shared memory",
                                   s.resident_a_bytes, s.total_bytes - s.resident_a_bytes - s.prefix_bytes));
  return Support::yes();
}

// Column tiles from which A is kept resident by default: enough that each persistent block (one per
// SM, 132 on an H100/H200) walks several tiles and copying A once is paid back many times over.
inline constexpr std::int64_t kResidentMinTiles = 1024;

// The order forced by a variant, or the default. Where channel blocks would waste the reduction (few
// channels, whatever the kernel's length): input_patch where the patch holds fewer floats than the
// block's gathered B (it copies whole input rows: a long 1-D row under one tile would be mostly
// waste) and it leaves room for two blocks per SM (one loads its patch while the other computes);
// else the k table, past its preferred size (long kernels) too while it leaves room for two blocks
// per SM. Otherwise choose_k_order's.
inline ForwardGemm forward_gemm_ordered(const ConvProblem& p3, std::optional<igemm::KOrder> forced = std::nullopt) {
  if (forced) return forward_gemm_in(p3, *forced);
  const igemm::KOrder order = igemm::choose_k_order(p3.in_channels_per_group(), p3.kernel_volume());
  const auto leaves_two_blocks = [](const ForwardGemm& g) {
    return g.support.ok && igemm::smem_layout(g.desc).total_bytes <= igemm::kMaxSmemBytes / 2;
  };
  if (igemm::channel_blocks_wasteful(p3.in_channels_per_group())) {
    ForwardGemm patch = forward_gemm_in(p3, igemm::KOrder::input_patch);
    const igemm::TileKind tile = igemm::choose_tile(p3.out_channels_per_group(), igemm::KOrder::input_patch);
    const std::int64_t gathered = igemm::tile_facts(tile).bn * patch.desc.cin_per_group * patch.desc.taps;
    if (patch.desc.patch.floats < gathered && leaves_two_blocks(patch)) return patch;
    if (order == igemm::KOrder::channel_blocks)
      if (ForwardGemm table = forward_gemm_in(p3, igemm::KOrder::k_table); leaves_two_blocks(table)) return table;
  }
  return forward_gemm_in(p3, order);
}

// The input_patch descriptor's patch tiling is made for the mma.sync tiles' 256 columns
// (forward_gemm_in); the wgmma tile reuses it, so it must be as wide.
static_assert(igemm::TileWgmma::kBN == igemm::Tile64W::kBN && igemm::TileWgmma::kBN == igemm::Tile96W::kBN &&
                  igemm::TileWgmma::kBN == igemm::Tile128::kBN,
              "the wgmma tile reads the patch tiled for the input_patch tiles' width");

// Whether the wgmma kernel runs a forward GEMM (igemm_wgmma_kernel.cuh), or why not: the input_patch
// order, a tensor-core math, A streamed.
inline Support wgmma_support(const igemm::GemmConvParams& d, const KernelChoice& c) {
  if (gemm_math(c.family) == igemm::GemmMath::ffma) return Support::no("wgmma is a tensor-core instruction (not FFMA)");
  if (d.order != igemm::KOrder::input_patch)
    return Support::no(fmt::format("wgmma runs the input_patch order only, not {}", igemm::order_name(d.order)));
  if (c.schedule == igemm::ASchedule::resident) return Support::no("wgmma streams A (no resident_a)");
  return Support::yes();
}

// The GEMM of a forward implicit-GEMM choice: the order and A schedule it forces, or the defaults.
// A stays resident by default for the tensor-core maths where it fits and the GEMM has
// kResidentMinTiles column tiles or more; else it is streamed. wgmma (a variant) reshapes the
// descriptor for its tile: rows padded to its 96, two planes of A under 3xTF32.
inline ForwardGemm forward_gemm(const ConvProblem& p3, const KernelChoice& c) {
  ForwardGemm g = forward_gemm_ordered(p3, c.order);
  if (c.mma == igemm::MmaKind::wgmma) {
    if (g.support) g.support = wgmma_support(g.desc, c);
    g.desc.mma = igemm::MmaKind::wgmma;
    g.desc.a_planes = gemm_math(c.family) == igemm::GemmMath::tf32x3 ? 2 : 1;
    g.desc.rows_padded = igemm::round_up(g.desc.rows, igemm::kWgmmaRows);
    return g;
  }
  if (!g.support || c.schedule == igemm::ASchedule::streamed) return g;
  Support resident = resident_support(g.desc);
  if (gemm_math(c.family) == igemm::GemmMath::ffma)
    resident = Support::no("resident A runs the tensor-core maths only (FFMA is bound by its FMAs, not by A)");
  const std::int64_t tiles = igemm::column_tiles(g.desc, igemm::Tile128Resident::kBN);
  if (c.schedule == igemm::ASchedule::resident || (resident && tiles >= kResidentMinTiles)) {
    g.support = resident;
    g.desc.a_schedule = igemm::ASchedule::resident;
  }
  return g;
}

inline igemm::GemmConvParams forward_gemm_params(const ConvProblem& p3, const KernelChoice& c) {
  return forward_gemm(p3, c).desc;
}

}  // namespace kbench::gpu::conv
