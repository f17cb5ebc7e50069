// The fp16/bf16 tensor-core GEMM's index arithmetic (half_gemm/half_gemm_index.hpp) against brute
// force: every (row, k) of A and (k, column) of B of random problems in both layouts lands where
// problem/memory_layout.hpp puts the logical element (or reads padding exactly where the convolution
// does), C where the output's element lives; NHWC's 8-element runs are 16 contiguous aligned bytes;
// each chunk's loads cover the tile exactly once; the m16n8k16 fragments are the PTX ISA's tables;
// and fragment reads of the padded shared rows hit 32 distinct banks.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>

#include "cuda/half_gemm/half_gemm_index.hpp"
#include "problem/memory_layout.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace hg = gpu::conv::half_gemm;

// Brute force: the logical input index A[m][k] of group g reads, or -1 at padding.
std::int64_t logical_input(const ConvProblem& p3, std::int64_t m, std::int64_t g, std::int64_t k) {
  const Dims out = p3.output();
  const std::int64_t volume = out[0] * out[1] * out[2];
  const std::int64_t n = m / volume, s = m % volume;
  const std::int64_t o[3] = {s / (out[1] * out[2]), s / out[2] % out[1], s % out[2]};
  const std::int64_t cin_pg = p3.in_channels_per_group();
  const std::int64_t tap = k / cin_pg, c = g * cin_pg + k % cin_pg;
  const std::int64_t t[3] = {tap / (p3.kernel[1] * p3.kernel[2]), tap / p3.kernel[2] % p3.kernel[1],
                             tap % p3.kernel[2]};
  std::int64_t index = n * p3.in_channels + c;
  for (int d = 0; d < 3; ++d) {
    const std::int64_t i = o[d] * p3.stride[d] - p3.pad_before[d] + t[d] * p3.dilation[d];
    if (i < 0 || i >= p3.input[d]) return -1;
    index = index * p3.input[d] + i;
  }
  return index;
}

void check_offsets(const ConvProblem& p) {
  const hg::HalfGemmParams d = hg::make_half_gemm_params(p);
  const ConvProblem& p3 = d.p3;
  REQUIRE(d.depth == p3.in_channels_per_group() * p3.kernel_volume());
  REQUIRE(d.rows == p3.batch * p3.output_spatial_volume());
  for (std::int64_t g = 0; g < p3.groups; ++g)
    for (std::int64_t m = 0; m < d.rows; ++m) {
      const hg::RowOrigin r = hg::row_origin(d, m);
      for (std::int64_t k = 0; k < d.depth + 3; ++k) {
        const std::int64_t logical = k < d.depth ? logical_input(p3, m, g, k) : -1;
        const std::int64_t expected = logical < 0 ? -1 : memory_offset(p3, Operand::input, logical);
        REQUIRE(hg::input_offset(d, r, g, k) == expected);
      }
      for (std::int64_t j = 0; j < d.cols; ++j) {
        const std::int64_t co = g * d.cout_pg + j;
        const std::int64_t logical = ((m / d.out_volume) * p3.out_channels + co) * d.out_volume + m % d.out_volume;
        REQUIRE(hg::output_offset(d, r, g, j) == memory_offset(p3, Operand::output, logical));
      }
    }
  for (std::int64_t co = 0; co < p3.out_channels; ++co)
    for (std::int64_t k = 0; k < d.depth + 3; ++k) {
      const std::int64_t g = co / d.cout_pg, j = co % d.cout_pg;
      // Logical weight [C_out][C_in/g][taps]: k = tap * cin_pg + c.
      const std::int64_t logical = (co * d.cin_pg + k % d.cin_pg) * d.kvol + k / d.cin_pg;
      const std::int64_t expected = k < d.depth ? memory_offset(p3, Operand::weight, logical) : -1;
      REQUIRE(hg::weight_offset(d, g, j, k) == expected);
    }
}

TEST_SUITE("cuda_index") {
  TEST_CASE("half GEMM: A, B and C offsets against brute force, NCHW and NHWC, ranks 1-3") {
    std::mt19937_64 rng(testing::test_seed(2401));
    for (int trial = 0; trial < 60; ++trial) {
      ConvProblem p = test::random_problem(rng, OpKind::conv);
      p.dtype = trial % 2 == 0 ? DType::fp16 : DType::bf16;
      for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
        p.layout = layout;
        CAPTURE(trial);
        CAPTURE(to_string(layout));
        check_offsets(p);
      }
    }
  }

  TEST_CASE("half GEMM: vector loads only for NHWC with C_in/g a multiple of 8, runs of 8 contiguous and aligned") {
    std::mt19937_64 rng(testing::test_seed(2402));
    for (int trial = 0; trial < 40; ++trial) {
      ConvProblem p = test::random_problem(rng, OpKind::conv);
      p.dtype = DType::fp16;
      const std::int64_t cin_pg = 8 * test::pick(rng, 1, 3) + (trial % 4 == 3 ? 3 : 0);
      p.in_channels = p.groups * cin_pg;
      for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
        p.layout = layout;
        const hg::HalfGemmParams d = hg::make_half_gemm_params(p);
        CHECK(d.vector_loads == (layout == Layout::nhwc && cin_pg % 8 == 0));
        if (!d.vector_loads) continue;
        for (std::int64_t g = 0; g < p.groups; ++g)
          for (std::int64_t m = 0; m < d.rows; ++m) {
            const hg::RowOrigin r = hg::row_origin(d, m);
            for (std::int64_t k = 0; k < d.chunks * hg::kTileK; k += hg::kVector) {
              const std::int64_t first = hg::input_offset(d, r, g, k);
              REQUIRE((first < 0 || first % hg::kVector == 0));
              for (int e = 1; e < hg::kVector; ++e)
                REQUIRE(hg::input_offset(d, r, g, k + e) == (first < 0 ? -1 : first + e));
              const std::int64_t w0 = hg::weight_offset(d, g, 0, k);
              REQUIRE((w0 < 0 || w0 % hg::kVector == 0));
              for (int e = 1; e < hg::kVector; ++e)
                REQUIRE(hg::weight_offset(d, g, 0, k + e) == (w0 < 0 ? -1 : w0 + e));
            }
          }
      }
    }
  }

  TEST_CASE("half GEMM: each chunk's loads cover the 64 x 32 tile exactly once") {
    std::set<std::pair<int, int>> vector_cells, element_cells;
    for (int t = 0; t < hg::kThreads; ++t) {
      for (int r = 0; r < hg::kVectorPieces; ++r)
        for (int e = 0; e < hg::kVector; ++e)
          CHECK(vector_cells.insert({hg::vector_row(t, r), hg::vector_segment(t) * hg::kVector + e}).second);
      for (int r = 0; r < hg::kElementPieces; ++r)
        CHECK(element_cells.insert({hg::element_row(t), hg::element_col(t, r)}).second);
    }
    CHECK(vector_cells.size() == static_cast<std::size_t>(hg::kTileM * hg::kTileK));
    CHECK(element_cells.size() == static_cast<std::size_t>(hg::kTileM * hg::kTileK));
    for (const auto& [row, col] : vector_cells) CHECK((row < hg::kTileM && col < hg::kTileK));
    for (const auto& [row, col] : element_cells) CHECK((row < hg::kTileM && col < hg::kTileK));
  }

  TEST_CASE("half GEMM: m16n8k16 fragments are the PTX ISA's, each element held once") {
    // PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type", stated as tables:
    // a0,a1 (gid, 2tig+{0,1}) a2,a3 (gid+8, ...) a4,a5 (gid, 2tig+8+{0,1}) a6,a7 (gid+8, 2tig+8+{0,1});
    // b0,b1 (2tig+{0,1}, gid) b2,b3 (2tig+8+{0,1}, gid); c0,c1 (gid, 2tig+{0,1}) c2,c3 (gid+8, ...).
    constexpr int kARow[8] = {0, 0, 8, 8, 0, 0, 8, 8}, kACol[8] = {0, 1, 0, 1, 8, 9, 8, 9};
    constexpr int kBRow[4] = {0, 1, 8, 9};
    constexpr int kCRow[4] = {0, 0, 8, 8}, kCCol[4] = {0, 1, 0, 1};
    std::set<std::pair<int, int>> a, b, c;
    for (int lane = 0; lane < 32; ++lane) {
      const int gid = lane / 4, tig = lane % 4;
      for (int i = 0; i < 8; ++i) {
        const hg::FragCoord f = hg::a_fragment(lane, i);
        CHECK(f.row == gid + kARow[i]);
        CHECK(f.col == 2 * tig + kACol[i]);
        a.insert({f.row, f.col});
      }
      for (int i = 0; i < 4; ++i) {
        const hg::FragCoord f = hg::b_fragment(lane, i);
        CHECK(f.row == 2 * tig + kBRow[i]);
        CHECK(f.col == gid);
        b.insert({f.row, f.col});
        const hg::FragCoord o = hg::c_fragment(lane, i);
        CHECK(o.row == gid + kCRow[i]);
        CHECK(o.col == 2 * tig + kCCol[i]);
        c.insert({o.row, o.col});
      }
    }
    CHECK(a.size() == 256);
    CHECK(b.size() == 128);
    CHECK(c.size() == 128);
  }

  TEST_CASE("half GEMM: fragment reads of the padded shared rows hit 32 distinct banks") {
    // One register of A (rows gid, column pair 2tig) and of B (rows gid = n, k pair 2tig) per lane.
    for (int reg = 0; reg < 4; ++reg) {
      std::set<int> banks;
      for (int lane = 0; lane < 32; ++lane) {
        const hg::FragCoord f = hg::a_fragment(lane, 2 * reg);
        banks.insert((f.row * hg::kRowHalves + f.col) / 2 % 32);
      }
      CHECK(banks.size() == 32);
    }
    for (int reg = 0; reg < 2; ++reg) {
      std::set<int> banks;
      for (int lane = 0; lane < 32; ++lane) {
        const hg::FragCoord f = hg::b_fragment(lane, 2 * reg);
        banks.insert((f.col * hg::kRowHalves + f.row) / 2 % 32);
      }
      CHECK(banks.size() == 32);
    }
    CHECK(hg::kRowHalves * 2 % 16 == 0);  // rows stay 16-byte aligned for the copies
  }
}

}  // namespace
}  // namespace kbench
