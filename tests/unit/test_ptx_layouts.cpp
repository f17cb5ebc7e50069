// The tensor-core layouts as the PTX ISA gives them, transcribed here as data ((size, stride) modes,
// CuTe's convention), and both sides that must agree with them: the kernels' own fragment,
// accumulator and descriptor functions (half_gemm_index.hpp, half_wgmma_index.hpp,
// igemm_wgmma_index.hpp, wgmma_desc.hpp) and the emulation's mma.sync and wgmma arithmetic
// (tests/emu/tensor_core_math.hpp), so that a later change to either side is caught here. A layout
// is checked the other way too: one stride changed fails the comparison.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "../emu/tensor_core_math.hpp"
#include "core/half.hpp"
#include "cuda/common/tf32_bits.hpp"
#include "cuda/common/wgmma_desc.hpp"
#include "cuda/half_gemm/half_gemm_index.hpp"
#include "cuda/half_gemm/half_wgmma_index.hpp"
#include "cuda/implicit_gemm/igemm_wgmma_index.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

// One mode of a layout: `size` coordinates, each `stride` apart. A coordinate splits over a list of
// modes first mode fastest; the layout's value is the sum of coordinate x stride.
struct Mode {
  int size, stride;
};

int offset_of(const std::vector<Mode>& modes, int index) {
  int offset = 0;
  for (const Mode& m : modes) {
    offset += index % m.size * m.stride;
    index /= m.size;
  }
  return offset;
}

int size_of(const std::vector<Mode>& modes) {
  int size = 1;
  for (const Mode& m : modes) size *= m.size;
  return size;
}

struct Coord {
  int row, col;
  bool operator==(const Coord&) const = default;
};

// A register fragment as the PTX ISA's figures draw it: (thread, value) -> (row, col) of a rows x cols
// matrix, through the column-major offset row + rows col.
struct FragmentLayout {
  const char* source;
  int rows, cols;
  std::vector<Mode> thread, value;

  Coord at(int thread_index, int value_index) const {
    const int offset = offset_of(thread, thread_index) + offset_of(value, value_index);
    return {offset % rows, offset / rows};
  }
};

// PTX ISA 8.x, 9.7.14.5.7 "Matrix Fragments for mma.m16n8k8" (.tf32): A 16 x 8, a0 (gid, tig),
// a1 (gid + 8, tig), a2 (gid, tig + 4), a3 (gid + 8, tig + 4); B 8 x 8 (k x n), b0 (tig, gid),
// b1 (tig + 4, gid). gid = lane / 4, tig = lane % 4: the thread modes are (tig, gid).
const FragmentLayout kMma1688TF32A{"mma.m16n8k8 .tf32 A", 16, 8, {{4, 16}, {8, 1}}, {{2, 8}, {2, 64}}};
const FragmentLayout kMma1688TF32B{"mma.m16n8k8 .tf32 B", 8, 8, {{4, 1}, {8, 8}}, {{2, 4}}};
// PTX ISA 8.x, 9.7.14.5.8 "Matrix Fragments for mma.m16n8k16 with floating point type": A 16 x 16,
// a_i (gid + 8 ((i / 2) % 2), 2 tig + i % 2 + 8 (i / 4)); B 16 x 8 (k x n), b_i (2 tig + i % 2 +
// 8 (i / 2), gid); C/D 16 x 8 (both shapes), c_i (gid + 8 (i / 2), 2 tig + i % 2).
const FragmentLayout kMma16816A{"mma.m16n8k16 A", 16, 16, {{4, 32}, {8, 1}}, {{2, 16}, {2, 8}, {2, 128}}};
const FragmentLayout kMma16816B{"mma.m16n8k16 B", 16, 8, {{4, 2}, {8, 16}}, {{2, 1}, {2, 8}}};
const FragmentLayout kMmaC{"mma.m16n8 C/D", 16, 8, {{4, 32}, {8, 1}}, {{2, 16}, {2, 8}}};

// PTX ISA 8.x, 9.7.15.5.1.1 "Register Fragments", wgmma .m64nNk*: D 64 x N, warp w of the warpgroup
// holding rows 16 w .. 16 w + 15 as mma's C, repeated every 8 columns: d_i (16 w + gid + 8 ((i / 2) % 2),
// 8 (i / 4) + 2 tig + i % 2); thread modes (tig, gid, w).
FragmentLayout wgmma_d(int n) {
  return {"wgmma D m64nN", 64, n, {{4, 128}, {8, 1}, {4, 16}}, {{2, 64}, {2, 8}, {n / 8, 512}}};
}
// The same section, A of .m64nNk8 .tf32 in registers: 64 x 8, per warp as mma.m16n8k8's A.
const FragmentLayout kWgmmaATF32{"wgmma A m64nNk8 .tf32", 64, 8, {{4, 64}, {8, 1}, {4, 16}}, {{2, 8}, {2, 256}}};

// PTX ISA 8.x, 9.7.15.5.1.2 "Shared Memory Matrix Layout", K-major without swizzle: the operand is a
// grid of core matrices of 8 rows (M or N) x 16 bytes along K, each row's 16 bytes contiguous and the
// rows 16 bytes apart; the leading dimension byte offset (LBO) is the distance between core matrices
// along K, the stride dimension byte offset (SBO) along M/N. Byte offset of element (k, mn).
std::uint32_t core_matrix_offset(int element_bytes, std::uint32_t lbo, std::uint32_t sbo, int k, int mn) {
  const int per_row = 16 / element_bytes;
  return static_cast<std::uint32_t>(offset_of({{8, 16}, {1 << 10, static_cast<int>(sbo)}}, mn) +
                                    offset_of({{per_row, element_bytes}, {1 << 10, static_cast<int>(lbo)}}, k));
}

// PTX ISA 8.x, 9.7.15.5.1.2.2 "Matrix Descriptor Format": (first bit, width) of each field; the
// address and the two byte offsets are stored as (x & 0x3FFFF) >> 4.
struct Field {
  int first, width;
};
constexpr Field kStartAddress{0, 14}, kLeadingOffset{16, 14}, kStrideOffset{32, 14}, kBaseOffset{49, 3},
    kSwizzle{62, 2};

std::uint64_t field_of(std::uint64_t desc, Field f) { return desc >> f.first & ((1ull << f.width) - 1); }

// How many (thread, value) pairs `layout` places differently from `placed(thread, value)`.
template <class Placed>
int mismatches(const FragmentLayout& layout, Placed&& placed) {
  int count = 0;
  for (int t = 0; t < size_of(layout.thread); ++t)
    for (int v = 0; v < size_of(layout.value); ++v) count += layout.at(t, v) == placed(t, v) ? 0 : 1;
  return count;
}

// Whether the layout is a bijection onto its rows x cols (the tables cover every element once).
bool covers_once(const FragmentLayout& layout) {
  std::vector<int> seen(static_cast<std::size_t>(layout.rows * layout.cols), 0);
  for (int t = 0; t < size_of(layout.thread); ++t)
    for (int v = 0; v < size_of(layout.value); ++v) {
      const Coord c = layout.at(t, v);
      if (c.row < 0 || c.row >= layout.rows || c.col < 0 || c.col >= layout.cols) return false;
      ++seen[static_cast<std::size_t>(c.row + layout.rows * c.col)];
    }
  for (const int s : seen)
    if (s != 1) return false;
  return true;
}

FragmentLayout with_stride(FragmentLayout layout, int value_mode, int stride) {
  layout.value[static_cast<std::size_t>(value_mode)].stride = stride;
  return layout;
}

// Small integers (exact in fp16, bf16 and TF32, and their products and sums exact in double).
int small_value(std::mt19937_64& rng) { return static_cast<int>(rng() % 9) - 4; }

}  // namespace

TEST_SUITE("ptx_layouts") {
  TEST_CASE("PTX layouts: the transcribed tables cover their matrices once") {
    for (const FragmentLayout* l : {&kMma1688TF32A, &kMma1688TF32B, &kMma16816A, &kMma16816B, &kMmaC, &kWgmmaATF32}) {
      CAPTURE(l->source);
      CHECK(covers_once(*l));
    }
    for (const int n : {64, 96, 256}) CHECK(covers_once(wgmma_d(n)));
  }

  TEST_CASE("PTX layouts: the fp16/bf16 GEMM's m16n8k16 fragments") {
    namespace hg = gpu::conv::half_gemm;
    const auto frag = [](auto f) {
      return [f](int lane, int i) {
        const hg::FragCoord c = f(lane, i);
        return Coord{c.row, c.col};
      };
    };
    CHECK(mismatches(kMma16816A, frag(hg::a_fragment)) == 0);
    CHECK(mismatches(kMma16816B, frag(hg::b_fragment)) == 0);
    CHECK(mismatches(kMmaC, frag(hg::c_fragment)) == 0);
    // A wrong table fails: A's registers 0 and 1 (rows gid and gid + 8) with the column step instead.
    CHECK(mismatches(with_stride(kMma16816A, 1, 16), frag(hg::a_fragment)) > 0);
  }

  TEST_CASE("PTX layouts: the wgmma accumulators of both kernels and the TF32 register A") {
    namespace hg = gpu::conv::half_gemm;
    namespace ig = gpu::conv::igemm;
    const FragmentLayout d64 = wgmma_d(64), d96 = wgmma_d(96);
    CHECK(mismatches(d64, [](int t, int i) { return Coord{hg::wgmma_c_row(t, i), hg::wgmma_c_col(t, i)}; }) == 0);
    // igemm's wgmma runs transposed: its tile columns are wgmma's rows, its tile rows wgmma's columns.
    const auto igemm_d = [](int t, int j) {
      return Coord{ig::wgmma_column(0, t / 32, t % 32, 0, ig::wgmma_acc_half(j)), ig::wgmma_acc_row(t % 32, j)};
    };
    CHECK(mismatches(d96, igemm_d) == 0);
    const auto igemm_a = [](int t, int e) {
      return Coord{ig::wgmma_column(0, t / 32, t % 32, 0, e % 2), ig::wgmma_a_row(t % 32, e)};
    };
    CHECK(mismatches(kWgmmaATF32, igemm_a) == 0);
    CHECK(mismatches(with_stride(d64, 1, 16), [](int t, int i) {
            return Coord{hg::wgmma_c_row(t, i), hg::wgmma_c_col(t, i)};
          }) > 0);
  }

  TEST_CASE("PTX layouts: the wgmma descriptor's fields and the core-matrix addresses it gives") {
    std::mt19937_64 rng(testing::test_seed(4242));
    for (int trial = 0; trial < 200; ++trial) {
      const auto start = static_cast<std::uint32_t>(rng() % (1u << 14)) << 4;
      const auto lbo = static_cast<std::uint32_t>(rng() % 64 + 1) << 4;
      const auto sbo = static_cast<std::uint32_t>(rng() % 64 + 1) << 4;
      const std::uint64_t desc = gpu::conv::wgmma_descriptor(start, lbo, sbo);
      CAPTURE(desc);
      CHECK(field_of(desc, kStartAddress) == start >> 4);
      CHECK(field_of(desc, kLeadingOffset) == lbo >> 4);
      CHECK(field_of(desc, kStrideOffset) == sbo >> 4);
      CHECK(field_of(desc, kBaseOffset) == 0);
      CHECK(field_of(desc, kSwizzle) == 0);
      const gpu::conv::WgmmaDescFields f = gpu::conv::wgmma_descriptor_fields(desc);
      CHECK(f.start_address == start);
      CHECK(f.k_stride_bytes == lbo);
      CHECK(f.mn_stride_bytes == sbo);
      const int k = static_cast<int>(rng() % 16), mn = static_cast<int>(rng() % 256);
      CHECK(gpu::conv::wgmma_tf32_element_address(desc, k % 8, mn) ==
            start + core_matrix_offset(4, lbo, sbo, k % 8, mn));
      CHECK(gpu::conv::wgmma_half_element_address(desc, k, mn) == start + core_matrix_offset(2, lbo, sbo, k, mn));
      // LBO and SBO read the other way round give other addresses (where they differ and the element
      // is not as many core matrices along K as along M/N).
      if (lbo != sbo && k / 8 != mn / 8)
        CHECK(gpu::conv::wgmma_half_element_address(desc, k, mn) != start + core_matrix_offset(2, sbo, lbo, k, mn));
    }
  }

  TEST_CASE("PTX layouts: the emulation's mma.sync products") {
    std::mt19937_64 rng(testing::test_seed(4243));
    // m16n8k16 fp16: A and B placed in the lanes' registers by the tables, D read back by them.
    for (int trial = 0; trial < 4; ++trial) {
      int a[16][16], b[16][8];
      for (auto& row : a)
        for (int& v : row) v = small_value(rng);
      for (auto& row : b)
        for (int& v : row) v = small_value(rng);
      std::uint32_t ra[32][4] = {}, rb[32][2] = {};
      for (int lane = 0; lane < 32; ++lane) {
        for (int i = 0; i < 8; ++i) {
          const Coord c = kMma16816A.at(lane, i);
          ra[lane][i / 2] |= std::uint32_t{fp16_bits_from_float(static_cast<float>(a[c.row][c.col]))} << (16 * (i % 2));
        }
        for (int i = 0; i < 4; ++i) {
          const Coord c = kMma16816B.at(lane, i);
          rb[lane][i / 2] |= std::uint32_t{fp16_bits_from_float(static_cast<float>(b[c.row][c.col]))} << (16 * (i % 2));
        }
      }
      int wrong = 0;
      for (int lane = 0; lane < 32; ++lane) {
        float d[4] = {1, 2, 3, 4};
        emu::mma_m16n8k16_lane<float_from_fp16_bits>(ra, rb, lane, d);
        for (int e = 0; e < 4; ++e) {
          const Coord c = kMmaC.at(lane, e);
          int sum = 1 + e;
          for (int k = 0; k < 16; ++k) sum += a[c.row][k] * b[k][c.col];
          wrong += d[e] == static_cast<float>(sum) ? 0 : 1;
        }
      }
      CHECK(wrong == 0);
    }
    // m16n8k8 TF32 the same way.
    int a[16][8], b[8][8];
    for (auto& row : a)
      for (int& v : row) v = small_value(rng);
    for (auto& row : b)
      for (int& v : row) v = small_value(rng);
    std::uint32_t ra[32][4] = {}, rb[32][2] = {};
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 4; ++i) {
        const Coord c = kMma1688TF32A.at(lane, i);
        ra[lane][i] = gpu::conv::float_bits(static_cast<float>(a[c.row][c.col]));
      }
      for (int i = 0; i < 2; ++i) {
        const Coord c = kMma1688TF32B.at(lane, i);
        rb[lane][i] = gpu::conv::float_bits(static_cast<float>(b[c.row][c.col]));
      }
    }
    int wrong = 0;
    for (int lane = 0; lane < 32; ++lane) {
      float d[4] = {};
      emu::mma_m16n8k8_tf32_lane(ra, rb, lane, d);
      for (int e = 0; e < 4; ++e) {
        const Coord c = kMmaC.at(lane, e);
        int sum = 0;
        for (int k = 0; k < 8; ++k) sum += a[c.row][k] * b[k][c.col];
        wrong += d[e] == static_cast<float>(sum) ? 0 : 1;
      }
    }
    CHECK(wrong == 0);
  }

  TEST_CASE("PTX layouts: the emulation's wgmma products, operands in shared memory or A in registers") {
    std::mt19937_64 rng(testing::test_seed(4244));
    constexpr int kN = 64, kK = 16;
    // A (64 x 16) and B (16 x 64), fp16, each laid out in "shared memory" by the core-matrix table.
    constexpr std::uint32_t kLbo = 128, kSbo = 256, kBStart = 64 * 16 * 2;
    std::vector<unsigned char> smem(2 * kBStart, 0);
    int a[64][kK], b[kK][kN];
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < kK; ++k) {
        a[m][k] = small_value(rng);
        const std::uint16_t bits = fp16_bits_from_float(static_cast<float>(a[m][k]));
        std::memcpy(&smem[core_matrix_offset(2, kLbo, kSbo, k, m)], &bits, 2);
      }
    for (int k = 0; k < kK; ++k)
      for (int n = 0; n < kN; ++n) {
        b[k][n] = small_value(rng);
        const std::uint16_t bits = fp16_bits_from_float(static_cast<float>(b[k][n]));
        std::memcpy(&smem[kBStart + core_matrix_offset(2, kLbo, kSbo, k, n)], &bits, 2);
      }
    const std::uint64_t desc_a = gpu::conv::wgmma_descriptor(0, kLbo, kSbo);
    const std::uint64_t desc_b = gpu::conv::wgmma_descriptor(kBStart, kLbo, kSbo);
    const auto shared_value = [&](std::uint64_t desc, int k, int mn) {
      const std::uint32_t at = emu::wgmma_operand_address(emu::WgmmaOperand::fp16, desc, k, mn);
      std::uint16_t bits;
      std::memcpy(&bits, &smem[at], 2);
      return emu::wgmma_operand_value(emu::WgmmaOperand::fp16, bits);
    };
    const FragmentLayout d = wgmma_d(kN);
    int wrong = 0;
    for (int rank = 0; rank < 128; ++rank) {
      float acc[kN / 2] = {};
      emu::wgmma_accumulate<kN, kK>(
          acc, rank, [&](int row, int k) { return shared_value(desc_a, k, row); },
          [&](int k, int col) { return shared_value(desc_b, k, col); });
      for (int j = 0; j < kN / 2; ++j) {
        const Coord c = d.at(rank, j);
        int sum = 0;
        for (int k = 0; k < kK; ++k) sum += a[c.row][k] * b[k][c.col];
        wrong += acc[j] == static_cast<float>(sum) ? 0 : 1;
      }
    }
    CHECK(wrong == 0);

    // A in registers (m64nNk8 TF32): each warp's fragments placed by the table, read back by the
    // emulation's lane and element of A(row, k).
    int wrong_a = 0;
    for (int t = 0; t < 128; ++t)
      for (int e = 0; e < 4; ++e) {
        const Coord c = kWgmmaATF32.at(t, e);
        wrong_a += c.row / 16 == t / 32 && emu::wgmma_a_register_lane(c.row, c.col) == t % 32 &&
                           emu::wgmma_a_register_element(c.row, c.col) == e
                       ? 0
                       : 1;
      }
    CHECK(wrong_a == 0);
  }
}

}  // namespace kbench
