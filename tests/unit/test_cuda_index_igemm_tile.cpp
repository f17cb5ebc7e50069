// Inside one block tile of the implicit-GEMM kernel: loads cover the staged chunk exactly once, the
// FFMA thread tiles and the mma fragments reproduce C = A^T B of the staged chunk (the mma.sync
// m16n8k8 .tf32 instruction emulated from the PTX ISA's fragment tables), and fragment reads hit 32
// distinct shared-memory banks.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_tile_index.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;

// PTX ISA, "Matrix Fragments for mma.m16n8k8" with .tf32: gid = lane >> 2, tig = lane & 3.
// Stated here as tables, independently of igemm_tile_index.hpp.
constexpr int kARowOff[4] = {0, 8, 0, 8};  // a0 (gid, tig) a1 (gid+8, tig) a2 (gid, tig+4) a3 (gid+8, tig+4)
constexpr int kAColOff[4] = {0, 0, 4, 4};
constexpr int kBRowOff[2] = {0, 4};        // b0 (tig, gid) b1 (tig+4, gid)
constexpr int kCRowOff[4] = {0, 0, 8, 8};  // c0 (gid, 2tig) c1 (gid, 2tig+1) c2 (gid+8, 2tig) c3 (gid+8, 2tig+1)
constexpr int kCColOff[4] = {0, 1, 0, 1};

struct Staged {
  std::vector<double> a;  // As[k][m], row stride kAStride
  std::vector<double> b;  // Bs[k][n], row stride kBStride
};

template <class T>
Staged random_chunk(std::mt19937_64& rng) {
  // Small integers: every product and sum below is exact in double.
  std::uniform_int_distribution<int> value(-4, 4);
  Staged s;
  s.a.assign(static_cast<std::size_t>(T::kBK * T::kAStride), 0.0);
  s.b.assign(static_cast<std::size_t>(T::kBK * T::kBStride), 0.0);
  for (auto& v : s.a) v = value(rng);
  for (auto& v : s.b) v = value(rng);
  return s;
}

template <class T>
double expected_c(const Staged& s, int m, int n) {
  double sum = 0;
  for (int k = 0; k < T::kBK; ++k)
    sum += s.a[static_cast<std::size_t>(k * T::kAStride + m)] * s.b[static_cast<std::size_t>(k * T::kBStride + n)];
  return sum;
}

template <class T>
void check_loaders() {
  std::vector<int> b(static_cast<std::size_t>(T::kBK * T::kBN), 0);
  for (int tid = 0; tid < T::kThreads; ++tid)
    for (int i = 0; i < T::kBLoads; ++i) {
      const ig::TileCoord at = ig::b_load_slot<T>(tid, i);
      CHECK(at.col == ig::b_load_slot<T>(tid, 0).col);  // one column per thread for the whole reduction
      REQUIRE(at.row < T::kBK);
      ++b[static_cast<std::size_t>(at.row * T::kBN + at.col)];
    }
  for (const int h : b) CHECK(h == 1);
  std::vector<int> a(static_cast<std::size_t>(T::kBK * T::kBM), 0);
  for (int tid = 0; tid < T::kThreads; ++tid)
    for (int i = 0; i < T::kALoads; ++i) {
      if (!ig::a_load_valid<T>(tid, i)) continue;
      const ig::TileCoord at = ig::a_load_slot<T>(tid, i);
      CHECK(at.col % 4 == 0);  // 16-byte aligned vectors
      REQUIRE(at.row < T::kBK);
      for (int e = 0; e < 4; ++e) ++a[static_cast<std::size_t>(at.row * T::kBM + at.col + e)];
    }
  for (const int h : a) CHECK(h == 1);
  // The epilogue walks rows row_group, row_group + kRowsPerPass, ... of the thread's column.
  std::vector<int> c(static_cast<std::size_t>(T::kBM * T::kBN), 0);
  for (int tid = 0; tid < T::kThreads; ++tid) {
    const ig::TileCoord first = ig::b_load_slot<T>(tid, 0);
    for (int r = first.row; r < T::kBM; r += T::kRowsPerPass) ++c[static_cast<std::size_t>(r * T::kBN + first.col)];
  }
  for (const int h : c) CHECK(h == 1);
}

// Every element of the staged C tile written exactly once, and equal to A^T B of the chunk.
template <class T>
void check_c_tile(const Staged& s, const std::vector<double>& cs, const std::vector<int>& written) {
  for (int m = 0; m < T::kBM; ++m)
    for (int n = 0; n < T::kBN; ++n) {
      const auto idx = static_cast<std::size_t>(m * T::kBN + n);
      REQUIRE(written[idx] == 1);
      REQUIRE(cs[idx] == expected_c<T>(s, m, n));
    }
}

// The FFMA path exactly as chunk_ffma/stage_accumulators read and write.
template <class T>
void check_ffma(std::mt19937_64& rng) {
  const Staged s = random_chunk<T>(rng);
  std::vector<double> cs(static_cast<std::size_t>(T::kBM * T::kBN), 0.0);
  std::vector<int> written(cs.size(), 0);
  for (int warp = 0; warp < T::kThreads / 32; ++warp)
    for (int lane = 0; lane < 32; ++lane) {
      double acc[4 * T::kMFrag][8] = {};
      for (int k = 0; k < T::kBK; ++k)
        for (int r = 0; r < 4 * T::kMFrag; ++r)
          for (int c = 0; c < 8; ++c) {
            const int a_row = ig::ffma_coord<T>(warp, lane, 4 * (r / 4), 0).row + r % 4;  // float4 component
            const int b_col = ig::ffma_coord<T>(warp, lane, 0, 4 * (c / 4)).col + c % 4;
            acc[r][c] += s.a[static_cast<std::size_t>(k * T::kAStride + a_row)] *
                         s.b[static_cast<std::size_t>(k * T::kBStride + b_col)];
          }
      for (int r = 0; r < 4 * T::kMFrag; ++r)
        for (int h = 0; h < 2; ++h) {
          const ig::TileCoord at = ig::ffma_coord<T>(warp, lane, r, 4 * h);
          CHECK(at.col % 4 == 0);
          for (int e = 0; e < 4; ++e) {
            // The accumulator's own coordinate agrees with where the float4 store puts it.
            const ig::TileCoord own = ig::ffma_coord<T>(warp, lane, r, 4 * h + e);
            CHECK(own.row == at.row);
            CHECK(own.col == at.col + e);
            const auto idx = static_cast<std::size_t>(at.row * T::kBN + at.col + e);
            cs[idx] = acc[r][4 * h + e];
            ++written[idx];
          }
        }
    }
  check_c_tile<T>(s, cs, written);
}

// The chunk's A as the mma kernels stage it: packed in the mma_fragments layout (packed_a_coord says
// which (row, m) each packed element holds), copied by the loader slots (a_fragment_load).
template <class T>
std::vector<double> fragment_stage(const Staged& s) {
  ig::GemmConvParams d;  // one group, one chunk, the block's rows only
  d.chunks = 1;
  d.rows_padded = T::kBM;
  std::vector<double> packed(static_cast<std::size_t>(ig::kChunkRows * T::kBM));
  for (std::size_t idx = 0; idx < packed.size(); ++idx) {
    const ig::PackedACoord c = ig::packed_a_coord(d, static_cast<std::int64_t>(idx), ig::ALayout::mma_fragments);
    packed[idx] = s.a[static_cast<std::size_t>(c.row * T::kAStride + c.m)];
  }
  std::vector<double> stage(packed.size(), std::nan(""));
  for (int tid = 0; tid < T::kThreads; ++tid)
    for (int i = 0; i < T::kALoads; ++i) {
      if (!ig::a_load_valid<T>(tid, i)) continue;
      const ig::FragmentLoad at = ig::a_fragment_load<T>(tid, i);
      const std::int64_t src = ig::packed_a_fragment_index(d, 0, 0, at.step, 0) + at.offset;
      for (int e = 0; e < 4; ++e)
        stage[static_cast<std::size_t>(at.dst + e)] = packed[static_cast<std::size_t>(src + e)];
    }
  return stage;
}

// The mma path: A staged in fragment order and read as chunk_mma does (one 16-byte load per lane
// and m-fragment), B gathered as chunk_mma does, the instruction emulated from the PTX tables,
// accumulators staged as stage_accumulators does.
template <class T>
void check_mma(std::mt19937_64& rng) {
  const Staged s = random_chunk<T>(rng);
  const std::vector<double> a_stage = fragment_stage<T>(s);
  std::vector<double> cs(static_cast<std::size_t>(T::kBM * T::kBN), 0.0);
  std::vector<int> written(cs.size(), 0);
  for (int warp = 0; warp < T::kThreads / 32; ++warp) {
    std::vector<double> acc(static_cast<std::size_t>(32 * T::kMFrag * 8 * 4), 0.0);  // [lane][i][f][e]
    const auto acc_at = [&](int lane, int i, int f, int e) -> double& {
      return acc[static_cast<std::size_t>(((lane * T::kMFrag + i) * 8 + f) * 4 + e)];
    };
    for (int ks = 0; ks < T::kBK; ks += 8)
      for (int i = 0; i < T::kMFrag; ++i)
        for (int f = 0; f < 8; ++f) {
          double a[16][8] = {}, b[8][8] = {};
          int a_set[16][8] = {}, b_set[8][8] = {};
          for (int lane = 0; lane < 32; ++lane) {
            const int gid = lane >> 2, tig = lane & 3;
            const int a_offset = ig::mma_a_fragment_offset<T>(warp, lane, i, ks);
            CHECK(a_offset % 4 == 0);  // a 16-byte load
            for (int e = 0; e < 4; ++e) {
              const ig::TileCoord at = ig::mma_a_coord<T>(warp, lane, i, e, ks);  // {m, k}: the k_major read
              a[gid + kARowOff[e]][tig + kAColOff[e]] =
                  T::kFragmentA ? a_stage[static_cast<std::size_t>(a_offset + e)]
                                : s.a[static_cast<std::size_t>(at.col * T::kAStride + at.row)];
              ++a_set[gid + kARowOff[e]][tig + kAColOff[e]];
            }
            for (int e = 0; e < 2; ++e) {
              const ig::TileCoord at = ig::mma_b_coord<T>(warp, lane, f, e, ks);  // {k, n}
              b[tig + kBRowOff[e]][gid] = s.b[static_cast<std::size_t>(at.row * T::kBStride + at.col)];
              ++b_set[tig + kBRowOff[e]][gid];
            }
          }
          for (int r = 0; r < 16; ++r)
            for (int k = 0; k < 8; ++k) REQUIRE(a_set[r][k] == 1);
          for (int k = 0; k < 8; ++k)
            for (int n = 0; n < 8; ++n) REQUIRE(b_set[k][n] == 1);
          for (int lane = 0; lane < 32; ++lane) {
            const int gid = lane >> 2, tig = lane & 3;
            for (int e = 0; e < 4; ++e) {
              double d = 0;
              for (int k = 0; k < 8; ++k) d += a[gid + kCRowOff[e]][k] * b[k][2 * tig + kCColOff[e]];
              acc_at(lane, i, f, e) += d;
            }
          }
        }
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < T::kMFrag; ++i)
        for (int f = 0; f < 8; ++f)
          for (int half = 0; half < 2; ++half) {
            const ig::TileCoord at = ig::mma_c_coord<T>(warp, lane, i, f, 2 * half);
            const ig::TileCoord next = ig::mma_c_coord<T>(warp, lane, i, f, 2 * half + 1);
            CHECK(next.row == at.row);  // the float2 store holds elements 2*half and 2*half + 1
            CHECK(next.col == at.col + 1);
            for (int e = 0; e < 2; ++e) {
              const auto idx = static_cast<std::size_t>(at.row * T::kBN + at.col + e);
              cs[idx] = acc_at(lane, i, f, 2 * half + e);
              ++written[idx];
            }
          }
  }
  check_c_tile<T>(s, cs, written);
}

// Every 32-bit B-fragment read of a warp, every quarter warp's 128-bit A-fragment reads, and every
// 64-bit C-tile store of a half warp, on 32 distinct banks.
template <class T>
void check_banks() {
  for (int warp = 0; warp < T::kThreads / 32; ++warp)
    for (int ks = 0; ks < T::kBK; ks += 8) {
      // A, mma_fragments: each quarter warp's 16-byte loads cover 128 consecutive bytes (one
      // wavefront each); k_major: each 32-bit read of the warp on 32 banks.
      for (int i = 0; i < T::kMFrag; ++i) {
        for (int quarter = 0; quarter < 4; ++quarter) {
          std::set<int> banks;
          for (int lane = 8 * quarter; lane < 8 * quarter + 8; ++lane)
            for (int e = 0; e < 4; ++e) banks.insert((ig::mma_a_fragment_offset<T>(warp, lane, i, ks) + e) % 32);
          CHECK(banks.size() == 32);
        }
        for (int e = 0; e < 4; ++e) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            const ig::TileCoord at = ig::mma_a_coord<T>(warp, lane, i, e, ks);
            banks.insert((at.col * T::kAStride + at.row) % 32);
          }
          CHECK(banks.size() == 32);
        }
      }
      for (int f = 0; f < 8; ++f)
        for (int e = 0; e < 2; ++e) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            const ig::TileCoord at = ig::mma_b_coord<T>(warp, lane, f, e, ks);
            banks.insert((at.row * T::kBStride + at.col) % 32);
          }
          CHECK(banks.size() == 32);
        }
    }
  for (int warp = 0; warp < T::kThreads / 32; ++warp)
    for (int i = 0; i < T::kMFrag; ++i)
      for (int f = 0; f < 8; ++f)
        for (int half = 0; half < 2; ++half)
          for (int half_warp = 0; half_warp < 2; ++half_warp) {
            std::set<int> banks;
            for (int lane = 16 * half_warp; lane < 16 * half_warp + 16; ++lane) {
              const ig::TileCoord at = ig::mma_c_coord<T>(warp, lane, i, f, 2 * half);
              banks.insert((at.row * T::kCStride + at.col) % 32);
              banks.insert((at.row * T::kCStride + at.col + 1) % 32);
            }
            CHECK(banks.size() == 32);
          }
}

template <class T>
void check_tile(std::mt19937_64& rng) {
  check_loaders<T>();
  check_ffma<T>(rng);
  check_mma<T>(rng);
  check_banks<T>();
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("implicit GEMM tile 64x128: loads, FFMA and mma fragments, banks") {
    std::mt19937_64 rng(kbench::testing::test_seed(64));
    check_tile<ig::Tile64>(rng);
  }

  TEST_CASE("implicit GEMM tile 96x128: loads, FFMA and mma fragments, banks") {
    std::mt19937_64 rng(kbench::testing::test_seed(96));
    check_tile<ig::Tile96>(rng);
  }

  TEST_CASE("implicit GEMM tile 128x256: loads, FFMA and mma fragments, banks") {
    std::mt19937_64 rng(kbench::testing::test_seed(128));
    check_tile<ig::Tile128>(rng);
  }

  TEST_CASE("implicit GEMM tile 64x256 (input_patch): loads, FFMA and mma fragments, banks") {
    std::mt19937_64 rng(kbench::testing::test_seed(642));
    check_tile<ig::Tile64W>(rng);
  }

  TEST_CASE("implicit GEMM tile 96x256 (input_patch): loads (a partial last A pass), FFMA and mma fragments, banks") {
    std::mt19937_64 rng(kbench::testing::test_seed(962));
    check_tile<ig::Tile96W>(rng);
    CHECK(ig::Tile96W::kAVectors % ig::Tile96W::kThreads != 0);  // the partial pass is exercised
  }

  TEST_CASE("shared memory fits: seed shapes' tiles and layouts") {
    ig::GemmConvParams d;
    d.rows = 96;
    d.order = ig::KOrder::k_table;
    d.chunks = 23;  // 3 x 121 taps
    CHECK(ig::smem_layout(d).total_bytes <= ig::kMaxSmemBytes / 2);
    d.rows = 64;
    d.order = ig::KOrder::channel_blocks;
    d.taps = 27;  // problem 77
    CHECK(ig::smem_layout(d).total_bytes <= 100 * 1024);
    for (const ig::KOrder gathered : {ig::KOrder::channel_blocks, ig::KOrder::k_table}) {
      CHECK(ig::choose_tile(64, gathered) == ig::TileKind::m64);
      CHECK(ig::choose_tile(96, gathered) == ig::TileKind::m96);
      CHECK(ig::choose_tile(128, gathered) == ig::TileKind::m128);
      CHECK(ig::choose_tile(200, gathered) == ig::TileKind::m128);
    }
    CHECK(ig::choose_tile(8, ig::KOrder::input_patch) == ig::TileKind::m64_wide);
    CHECK(ig::choose_tile(96, ig::KOrder::input_patch) == ig::TileKind::m96_wide);
    CHECK(ig::choose_tile(128, ig::KOrder::input_patch) == ig::TileKind::m128);
  }

}  // TEST_SUITE

}  // namespace kbench
