#pragma once
// Where each thread's loads, fragments and accumulators sit inside a block tile of the implicit-GEMM
// kernel (igemm_kernel.cuh). Host/device so the CPU tests can check coverage (every tile element
// loaded / accumulated exactly once), the fragment layout of mma.sync m16n8k8 .tf32 (by emulating
// the instruction), and the absence of shared-memory bank conflicts.
//
// Shared memory holds A as As[k][m] (row stride kAStride) and B as Bs[k][n] (kBStride), C as Cs[m][n].
#include "core/host_device.hpp"

namespace kbench::gpu::conv::igemm {

struct TileCoord {
  int row = 0;
  int col = 0;
};

template <class T>
KBENCH_HD int warp_m_of(int warp) {
  return warp % T::kWarpsM;
}
template <class T>
KBENCH_HD int warp_n_of(int warp) {
  return warp / T::kWarpsM;
}

// B loader: load i of thread tid fills Bs[row][col]; col is the thread's for the whole reduction.
template <class T>
KBENCH_HD TileCoord b_load_slot(int tid, int i) {
  return TileCoord{tid / T::kBN + i * T::kRowsPerPass, tid % T::kBN};
}

// A loader: 16-byte copy i of thread tid fills As[row][col .. col + 3], if a_load_valid (the last
// pass may have fewer vectors than threads).
template <class T>
KBENCH_HD bool a_load_valid(int tid, int i) {
  return tid + i * T::kThreads < T::kAVectors;
}
template <class T>
KBENCH_HD TileCoord a_load_slot(int tid, int i) {
  const int v = tid + i * T::kThreads;
  return TileCoord{v / (T::kBM / 4), 4 * (v % (T::kBM / 4))};
}

// A loader, mma_fragments layout: 16-byte copy i of thread tid (if a_load_valid) fills As[4v ..]
// with v = tid + i * kThreads, from k-step v / (2 BM) of the chunk, 4 * (v % (2 BM)) floats into
// the block's rows (packed_a_fragment_index): the block's slice of each k-step is contiguous.
struct FragmentLoad {
  int step = 0;    // k-step of 8 rows
  int offset = 0;  // floats from the block's first 16-row block in that k-step
  int dst = 0;     // floats from the stage's A
};
template <class T>
KBENCH_HD FragmentLoad a_fragment_load(int tid, int i) {
  const int v = tid + i * T::kThreads;
  return FragmentLoad{v / (2 * T::kBM), 4 * (v % (2 * T::kBM)), 4 * v};
}

// mma: the stage offset (floats) of lane's four A-fragment elements of m-fragment i at k-step ks, in
// the mma_fragments layout: [k-step][16-row block of the block tile][lane][e].
template <class T>
KBENCH_HD int mma_a_fragment_offset(int warp, int lane, int i, int ks) {
  return ((ks / 8) * (T::kBM / 16) + warp_m_of<T>(warp) * T::kMFrag + i) * 128 + 4 * lane;
}

// FFMA: accumulator [r][c] (r < 4*MFRAG, c < 8) of a lane is C[row][col]. Lanes form 4 (rows) x 8 (cols);
// rows come in groups of 4 (one float4 of As), columns in two groups of 4 (two float4s of Bs).
template <class T>
KBENCH_HD TileCoord ffma_coord(int warp, int lane, int r, int c) {
  return TileCoord{warp_m_of<T>(warp) * T::kWarpRows + (r / 4) * 16 + (lane / 8) * 4 + r % 4,
                   warp_n_of<T>(warp) * 64 + (c / 4) * 32 + (lane % 8) * 4 + c % 4};
}

// mma.sync m16n8k8 .tf32 fragments (PTX ISA), gid = lane / 4, tig = lane % 4, for m-fragment i,
// n-fragment f and k-step base ks:
//   A element e: (row gid + 8*(e & 1), k tig + 4*(e >> 1))   -> TileCoord{m, k}
//   B element e: (k tig + 4*e, col gid)                      -> TileCoord{k, n}
//   C element e: (row gid + 8*(e >> 1), col 2*tig + (e & 1)) -> TileCoord{m, n}
template <class T>
KBENCH_HD TileCoord mma_a_coord(int warp, int lane, int i, int e, int ks) {
  return TileCoord{warp_m_of<T>(warp) * T::kWarpRows + i * 16 + lane / 4 + 8 * (e & 1), ks + lane % 4 + 4 * (e >> 1)};
}
template <class T>
KBENCH_HD TileCoord mma_b_coord(int warp, int lane, int f, int e, int ks) {
  return TileCoord{ks + lane % 4 + 4 * e, warp_n_of<T>(warp) * 64 + f * 8 + lane / 4};
}
template <class T>
KBENCH_HD TileCoord mma_c_coord(int warp, int lane, int i, int f, int e) {
  return TileCoord{warp_m_of<T>(warp) * T::kWarpRows + i * 16 + lane / 4 + 8 * (e >> 1),
                   warp_n_of<T>(warp) * 64 + f * 8 + 2 * (lane % 4) + (e & 1)};
}

}  // namespace kbench::gpu::conv::igemm
