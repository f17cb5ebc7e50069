#pragma once
// Split-K of the implicit GEMM: where a GEMM's output tiles are too few to occupy the device (a
// late ResNet layer at batch 1: M 512 x N 49 gives 4 blocks of 128x256 for 132 SMs, each walking
// all 288 chunks of a 4,608-long reduction), the chunks of each tile are shared among `splits`
// blocks. Each block reduces its range of chunks into a partial tile, stored densely in a workspace
// [split][group][m][column] (coalesced along columns, as the epilogue's stores are); a second
// kernel (igemm_split_reduce.cuh) sums the partials in split order, adds the bias and stores the
// output as the GEMM's own epilogue would (transposed phases' untapped neighbours included).
//
// Only the gathered orders on streamed A run split: input_patch copies a whole patch per block
// (every split would copy it again), resident A keeps the whole of A per block, and wgmma has its
// own kernel. Plain C++ and host/device; tested on the CPU (test_cuda_index_igemm_split.cpp) and
// run under the CUDA emulation (test_emulated_igemm.cpp).
#include <algorithm>
#include <cstdint>
#include <string>

#include "core/host_device.hpp"
#include "core/support.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"

namespace kbench::gpu::conv::igemm {

// Fewest chunks (16 reduction rows each) a split reduces: a split's pipeline fill and its partial
// tile's store and reload are paid back over at least 128 rows of math.
inline constexpr std::int64_t kMinChunksPerSplit = 8;
// Most splits of one tile: bounds the partial tiles a reduction reads per output.
inline constexpr std::int64_t kMaxSplits = 32;

// The chunks [begin, end) that split `split` of d.splits reduces: as even as the count allows.
struct ChunkRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

KBENCH_HD ChunkRange split_chunk_range(const GemmConvParams& d, std::int64_t split) {
  return ChunkRange{split * d.chunks / d.splits, (split + 1) * d.chunks / d.splits};
}

// Grid z holds groups x splits: the group fastest, so an unsplit grid's z is the group as before.
KBENCH_HD std::int64_t group_of_z(const GemmConvParams& d, std::int64_t z) { return z % d.groups; }
KBENCH_HD std::int64_t split_of_z(const GemmConvParams& d, std::int64_t z) { return z / d.groups; }

// Workspace element of output row m (< d.rows) and GEMM column `column` (< d.columns) in split `split`.
KBENCH_HD std::int64_t partial_index(const GemmConvParams& d, std::int64_t split, std::int64_t group, std::int64_t m,
                                     std::int64_t column) {
  return ((split * d.groups + group) * d.rows + m) * d.columns + column;
}

// Floats of the workspace a descriptor needs: none unless it splits.
inline std::int64_t partial_floats(const GemmConvParams& d) {
  return d.splits > 1 ? d.splits * d.groups * d.rows * d.columns : 0;
}

// Whether descriptor d can run split at all, or why not.
inline Support split_support(const GemmConvParams& d) {
  if (d.order == KOrder::input_patch)
    return Support::no("input_patch copies a whole patch per block; split-K would copy it per split");
  if (d.a_schedule == ASchedule::resident)
    return Support::no("resident A keeps all of A per block (split-K streams A)");
  if (d.mma == MmaKind::wgmma) return Support::no("the wgmma kernel does not split the reduction");
  return Support::yes();
}

// Whether some device would split descriptor d, or why none would (the variant "no_split_k" then
// changes nothing).
inline Support ever_splits(const GemmConvParams& d) {
  if (Support s = split_support(d); !s) return s;
  if (d.chunks < 2 * kMinChunksPerSplit)
    return Support::no("its reduction of " + std::to_string(d.chunks) +
                       " chunks is too short to split (two splits need " + std::to_string(2 * kMinChunksPerSplit) +
                       ")");
  if (d.groups > 65535 / 2) return Support::no("its groups leave no room in the grid for splits");
  return Support::yes();
}

// The blocks of a grid that compute (the fill-only blocks of a transposed convolution's zero fill
// aside), unsplit.
inline std::int64_t gemm_blocks(const GemmConvParams& d) {
  GemmConvParams one = d;
  one.splits = 1;
  const GemmGrid g = gemm_grid(one);
  return (g.x - d.fill_blocks) * g.y * g.z;
}

// Splits for a device of `sms` SMs (0: unknown, no split): as many as fill about one block per
// SM, where the unsplit grid leaves at least half of them idle; at most kMaxSplits, each of at
// least kMinChunksPerSplit chunks; 1 where that gives fewer than 2 or the descriptor cannot split.
inline std::int64_t choose_splits(const GemmConvParams& d, int sms) {
  if (sms <= 0 || !split_support(d)) return 1;
  const std::int64_t blocks = gemm_blocks(d);
  std::int64_t splits = std::min({kMaxSplits, d.chunks / kMinChunksPerSplit, sms / std::max<std::int64_t>(1, blocks)});
  // Grid z (groups x splits) stays within a launch's 65,535.
  splits = std::min(splits, 65535 / d.groups);
  return splits >= 2 ? splits : 1;
}

}  // namespace kbench::gpu::conv::igemm
