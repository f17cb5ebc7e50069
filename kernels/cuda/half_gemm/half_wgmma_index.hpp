#pragma once
// Where the wgmma variant of the fp16/bf16 implicit GEMM (half_wgmma_kernel.cuh) keeps its tiles and
// its threads, host/device so the CPU tests check it against the descriptors (wgmma_desc.hpp) and
// brute force (tests/unit/test_cuda_index_half_wgmma.cpp). The GEMM, its block tile (64 x 64 x 32)
// and its index arithmetic are the mma.sync kernel's (half_gemm_index.hpp).
//
// Shared memory, per stage: A (64 GEMM rows x 32 k) then B (64 output channels x 32 k), each K-major
// in wgmma's unswizzled core matrices (8 rows x 8 halves, 128 contiguous bytes): core matrix
// (row / 8, k / 8) at (k / 8) * kWgmmaKStrideBytes + (row / 8) * kWgmmaMnStrideBytes. A k16 step's
// descriptor starts at its first k group; the tensor core reads the rest from the two strides.
#include <cstdint>

#include "core/host_device.hpp"
#include "cuda/half_gemm/half_gemm_index.hpp"

namespace kbench::gpu::conv::half_gemm {

static_assert(kTileM == kTileN, "A and B tiles share one layout");
inline constexpr int kWgmmaCoreBytes = 128;                                        // 8 rows x 16 bytes
inline constexpr std::uint32_t kWgmmaMnStrideBytes = kWgmmaCoreBytes;              // next 8 rows
inline constexpr std::uint32_t kWgmmaKStrideBytes = kTileM / 8 * kWgmmaCoreBytes;  // next 8 k: 1024
inline constexpr int kWgmmaOperandHalves = kTileM * kTileK;                        // 2048 (4 KB)
inline constexpr int kWgmmaStageHalves = 2 * kWgmmaOperandHalves;
// Four stages, two chunks ahead: the stage refilled at chunk c held chunk c - 2, whose products every
// thread waited for before the barrier of chunk c; chunk c - 1's may still be in flight (wait_group 1).
inline constexpr int kWgmmaStages = 4;
inline constexpr int kWgmmaSmemBytes = kWgmmaStages * kWgmmaStageHalves * 2;  // 32,768: under 48 KB

// Offset in halves of element (row, k) of an operand tile (row: GEMM row for A, output channel for B).
KBENCH_HD constexpr int wgmma_tile_offset(int row, int k) {
  return static_cast<int>((k / 8) * kWgmmaKStrideBytes / 2 + (row / 8) * kWgmmaMnStrideBytes / 2) + (row % 8) * 8 +
         k % 8;
}

// Byte offset, from the operand tile's start, of the k16 step starting at k = 16 `step`.
KBENCH_HD constexpr std::uint32_t wgmma_step_bytes(int step) { return 2 * step * kWgmmaKStrideBytes; }

// Vector loads: a 64 x 32 tile is 64 rows x 4 segments of 8 halves; thread t copies segment (t / 8) % 4
// of rows t % 8 + 8 (t / 32) + 32 r, r = 0, 1. Each 8 threads writing 16 bytes at once (one
// shared-memory wavefront) then fill the 8 rows of one core matrix: distinct banks; and each warp
// reads 8 positions x 64 contiguous bytes, as the mma.sync kernel's loads do.
inline constexpr int kWgmmaVectorPieces = kTileM * (kTileK / kVector) / kThreads;  // 2
KBENCH_HD constexpr int wgmma_vector_row(int thread, int r) { return thread % 8 + 8 * (thread / 32) + 32 * r; }
KBENCH_HD constexpr int wgmma_vector_segment(int thread) { return thread / 8 % 4; }

// Accumulator i (of 32) of an m64n64 product, thread t of the warpgroup (PTX ISA's D layout, warp
// w = t / 32, gid = t % 32 / 4, tig = t % 4): row 16 w + gid + 8 (i % 4 / 2), column 8 (i / 4) + 2 tig + i % 2.
inline constexpr int kWgmmaAccumulators = kTileM * kTileN / kThreads;  // 32
KBENCH_HD constexpr int wgmma_c_row(int thread, int i) {
  return 16 * (thread / 32) + thread % 32 / 4 + 8 * (i % 4 / 2);
}
KBENCH_HD constexpr int wgmma_c_col(int thread, int i) { return 8 * (i / 4) + 2 * (thread % 4) + i % 2; }

}  // namespace kbench::gpu::conv::half_gemm
