#pragma once
// The knobs a kernel variant can force (`cuda:FAMILY/knob/...`), and their names: kept apart from the
// index headers of the families that read them, so a kernel choice (common/kernel_choice.hpp) names every
// knob without including any family. Host/device: the kernels read the same enums.
#include <cstdint>

namespace kbench::gpu::conv::igemm {

// The reduction orders (igemm_index.hpp's header has channel_blocks and k_table).
// input_patch: the k_table's dense reduction, but B is not gathered per chunk: each block copies the
//              input patch its columns read into shared memory once and reads B from it through a
//              table of per-k offsets (igemm_patch_index.hpp). 1-D/2-D forward convolutions with few
//              channels (problem 50).
enum class KOrder : std::int32_t { channel_blocks = 0, k_table = 1, input_patch = 2 };

inline const char* order_name(KOrder o) {
  switch (o) {
    case KOrder::channel_blocks: return "channel_blocks";
    case KOrder::k_table: return "k_table";
    case KOrder::input_patch: return "input_patch";
  }
  return "?";
}

// How a block gets packed A. streamed: every block walks one column tile and streams A's chunks
// from L2 through its pipeline (every block reads all of A). resident: a persistent block copies its
// rows of A into shared memory once and walks column tiles (blockIdx.x, + gridDim.x, ...) with only B
// in the pipeline: no A traffic after the first copy (problem 76: 4.3 GB of L2 reads less), at the price
// of direct stores from the accumulators (no shared C tile). igemm_resident_index.hpp has its walk.
enum class ASchedule : std::int32_t { streamed = 0, resident = 1 };

inline const char* schedule_name(ASchedule s) { return s == ASchedule::resident ? "resident_a" : "streamed_a"; }

// Which tensor-core instruction the tf32 maths use. mma_sync: the warp-level m16n8k8 (sm_80+), both
// operands through registers. wgmma: Hopper's warpgroup-level wgmma.mma_async (sm_90a,
// igemm_wgmma_kernel.cuh), m64n96k8 per instruction with the weights read by the tensor core
// straight from shared memory: the input_patch order only.
enum class MmaKind : std::int32_t { mma_sync = 0, wgmma = 1 };

inline const char* mma_kind_name(MmaKind k) { return k == MmaKind::wgmma ? "wgmma" : "mma_sync"; }

// Whether the reduction may be split over several blocks per output tile (split-K,
// igemm_split_index.hpp). automatic: where the device would otherwise idle (a grid of fewer blocks
// than half its SMs), as the launch decides from the device's SM count. none: never (the variant
// "no_split_k", to measure what splitting gains).
enum class SplitK : std::int32_t { automatic = 0, none = 1 };

inline const char* split_k_name(SplitK s) { return s == SplitK::none ? "no_split_k" : "split_k"; }

// ffma: IEEE fp32 FMAs. tf32: one TF32 tensor-core product (round-to-nearest inputs).
// tf32x3: split TF32 ("3xTF32"): each fp32 operand as a TF32 big part plus a TF32 remainder,
// three products (small*big, big*small, big*big); error near fp32's, checked against the fp32 tolerance.
enum class GemmMath { ffma, tf32, tf32x3 };

}  // namespace kbench::gpu::conv::igemm

namespace kbench::gpu::conv::depthwise {

// How output rows reach memory. Rows of an even width that is not a multiple of 4 (store_width 2):
// `split`, two 8-byte stores per lane (the default); `realigned`, 16-byte stores on every row
// (even_row_stores). `bulk` and `bulk_pipelined`: another kernel (depthwise2d_bulk_kernel.cuh),
// whose strips go through shared memory both ways by bulk copies, whole rows at a time; one strip
// a block, or persistent blocks with two stages. Variants until a GPU run decides: realigned halves
// the output's L2 write requests but its shuffles raise the 3x3 kernel from 72 to 88 registers (7 ->
// 5 blocks, 57 -> 40 KB of loads in flight per SM); bulk writes whole sectors with few
// instructions, but a block's copies overlap only the other blocks' arithmetic, which the pipelined
// schedule overlaps within the block too, at twice the shared memory.
enum class StoreMode : int { split = 0, realigned = 1, bulk = 2, bulk_pipelined = 3 };

inline bool is_bulk(StoreMode m) { return m == StoreMode::bulk || m == StoreMode::bulk_pipelined; }

inline const char* store_mode_name(StoreMode m) {
  switch (m) {
    case StoreMode::realigned: return "realigned_stores";
    case StoreMode::bulk: return "bulk_copies";
    case StoreMode::bulk_pipelined: return "bulk_pipelined";
    case StoreMode::split: break;
  }
  return "split_stores";
}

}  // namespace kbench::gpu::conv::depthwise

namespace kbench::gpu::conv {

// Where a transposed convolution's zero fill runs: also in fill-only blocks after the first phase
// GEMM's column tiles (the default, trailing_fill_blocks), or in the GEMM blocks only (the variant
// `no_fill_blocks`: the launch as it was before, kept so a GPU run compares the two).
enum class FillBlocks : int { trailing = 0, none = 1 };

inline const char* fill_blocks_name(FillBlocks f) { return f == FillBlocks::none ? "no_fill_blocks" : "fill_blocks"; }

}  // namespace kbench::gpu::conv
