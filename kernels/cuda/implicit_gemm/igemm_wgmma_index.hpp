#pragma once
// Where the wgmma kernel's threads sit in its 96 x 256 tile (igemm_wgmma_kernel.cuh, TileWgmma),
// host/device so the CPU tests check coverage and bank conflicts. The GEMM runs transposed to the
// other kernels: wgmma's M (64 per product, from registers) is the tile's columns (output
// positions, read from the input patch) and its N (96, from shared memory) the tile's rows (output
// channels, the weights), so the weights never pass through registers.
//   warpgroup g (threads 128 g ...) owns columns [128 g, 128 g + 128): m64 product t of them starts at 64 t;
//   in product t, warp w of the warpgroup, lane l (gid = l / 4, tig = l % 4), the PTX ISA's layouts:
//     A fragment element e: column 16 w + gid + 8 (e % 2), reduction row tig + 4 (e / 2) of the k-step
//     accumulator j < 48:   column 16 w + gid + 8 (j % 4 / 2), row 8 (j / 4) + 2 tig + j % 2
#include "core/host_device.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"

namespace kbench::gpu::conv::igemm {

// Tile column of half h (0: gid, 1: gid + 8) of the thread's rows in m64 product t.
KBENCH_HD constexpr int wgmma_column(int warpgroup, int warp_in_group, int lane, int t, int h) {
  return warpgroup * TileWgmma::kWarpgroupColumns + 64 * t + 16 * warp_in_group + lane / 4 + 8 * h;
}

// Reduction row within a k-step of 8 of A-fragment element e (e / 2: the upper four).
KBENCH_HD constexpr int wgmma_a_row(int lane, int e) { return lane % 4 + 4 * (e / 2); }

// Tile row (output channel within the row tile) of accumulator j.
KBENCH_HD constexpr int wgmma_acc_row(int lane, int j) { return 8 * (j / 4) + 2 * (lane % 4) + j % 2; }

// Which half (wgmma_column's h) accumulator j's column is.
KBENCH_HD constexpr int wgmma_acc_half(int j) { return j % 4 / 2; }

}  // namespace kbench::gpu::conv::igemm
