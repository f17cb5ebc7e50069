// The wgmma kernel's index arithmetic (igemm_wgmma_kernel.cuh): descriptor bit fields, the
// wgmma_cores layout of packed A as the descriptors address it, the thread layout's coverage of the
// tile, conflict-free C-tile stores, and where the selection offers the variant.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cuda/common/wgmma_desc.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_wgmma_index.hpp"
#include "cuda/selection.hpp"
#include "problem/rank3.hpp"
#include "headline_problems.hpp"

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;
using gpu::conv::Family;
using gpu::conv::KernelChoice;
using ig::TileWgmma;

const KernelChoice kWgmmaTf32{Family::implicit_gemm_tf32, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                              ig::MmaKind::wgmma};
const KernelChoice kWgmma3x{
    Family::implicit_gemm_3xtf32, std::nullopt, std::nullopt, std::nullopt, std::nullopt, ig::MmaKind::wgmma};

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("wgmma descriptor: the PTX ISA's bit fields, decoded back") {
    // start 0x1230 >> 4 in bits 0-13, 1536 >> 4 in bits 16-29, 128 >> 4 in bits 32-45, no swizzle.
    const std::uint64_t desc = gpu::conv::wgmma_descriptor(0x1230, 1536, 128);
    CHECK(desc == (0x123ull | (96ull << 16) | (8ull << 32)));
    const gpu::conv::WgmmaDescFields f = gpu::conv::wgmma_descriptor_fields(desc);
    CHECK(f.start_address == 0x1230);
    CHECK(f.k_stride_bytes == 1536);
    CHECK(f.mn_stride_bytes == 128);
    CHECK(f.base_offset == 0);
    CHECK(f.swizzle == 0);
    // The largest shared address a block can have (227 KB) still fits the 14-bit field.
    CHECK(
        gpu::conv::wgmma_descriptor_fields(gpu::conv::wgmma_descriptor(ig::kMaxSmemBytes - 16, 16, 16)).start_address ==
        ig::kMaxSmemBytes - 16);
  }

  TEST_CASE("wgmma_cores: each k-step's descriptor addresses exactly the packed element, in both planes") {
    constexpr std::uint32_t base = 4096;
    for (int plane = 0; plane < 2; ++plane)
      for (int step = 0; step < 2; ++step) {
        const std::uint32_t start = base + plane * ig::kWgmmaPlaneFloats * 4 + 2 * step * ig::kWgmmaKQuadBytes;
        const std::uint64_t desc = gpu::conv::wgmma_descriptor(start, ig::kWgmmaKQuadBytes, 128);
        for (int k = 0; k < 8; ++k)
          for (int n = 0; n < ig::kWgmmaRows; ++n)
            REQUIRE(gpu::conv::wgmma_tf32_element_address(desc, k, n) ==
                    base + 4 * (plane * ig::kWgmmaPlaneFloats + ig::wgmma_core_offset(8 * step + k, n)));
      }
  }

  TEST_CASE("wgmma_cores: packed_a_coord visits every (group, chunk, row, m, plane) once and inverts the index") {
    ig::GemmConvParams d;
    d.groups = 2;
    d.chunks = 3;
    d.rows = 150;
    d.rows_padded = 192;  // two row tiles
    for (const int planes : {1, 2}) {
      d.a_planes = planes;
      std::set<std::vector<std::int64_t>> seen;
      for (std::int64_t idx = 0; idx < ig::packed_a_size(d); ++idx) {
        const ig::PackedACoord c = ig::packed_a_coord(d, idx, ig::ALayout::wgmma_cores);
        REQUIRE(c.row < ig::kChunkRows);
        REQUIRE(c.m < d.rows_padded);
        const std::int64_t tile = c.m / ig::kWgmmaRows;
        REQUIRE(ig::packed_a_wgmma_index(d, c.group, c.chunk, tile) + c.plane * ig::kWgmmaPlaneFloats +
                    ig::wgmma_core_offset(static_cast<int>(c.row), static_cast<int>(c.m % ig::kWgmmaRows)) ==
                idx);
        seen.insert({c.group, c.chunk, c.row, c.m, c.plane});
      }
      CHECK(static_cast<std::int64_t>(seen.size()) == ig::packed_a_size(d));
    }
  }

  TEST_CASE("wgmma thread layout: A fragments and accumulators cover the 96 x 256 tile exactly once") {
    std::vector<int> a_hits(TileWgmma::kBN * 8, 0);               // (column, k of a k-step)
    std::vector<int> c_hits(TileWgmma::kBM * TileWgmma::kBN, 0);  // (row, column)
    for (int tid = 0; tid < TileWgmma::kThreads; ++tid) {
      const int warp = tid / 32, lane = tid % 32;
      for (int t = 0; t < TileWgmma::kMTiles; ++t) {
        for (int e = 0; e < 4; ++e)
          ++a_hits[ig::wgmma_column(warp / 4, warp % 4, lane, t, e % 2) * 8 + ig::wgmma_a_row(lane, e)];
        for (int j = 0; j < 48; ++j)
          ++c_hits[ig::wgmma_acc_row(lane, j) * TileWgmma::kBN +
                   ig::wgmma_column(warp / 4, warp % 4, lane, t, ig::wgmma_acc_half(j))];
      }
    }
    CHECK(std::all_of(a_hits.begin(), a_hits.end(), [](int h) { return h == 1; }));
    CHECK(std::all_of(c_hits.begin(), c_hits.end(), [](int h) { return h == 1; }));
  }

  TEST_CASE("wgmma C tile: each warp's accumulator stores hit 32 distinct banks") {
    for (int warp = 0; warp < TileWgmma::kThreads / 32; ++warp)
      for (int t = 0; t < TileWgmma::kMTiles; ++t)
        for (int j = 0; j < 48; ++j) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane)
            banks.insert((ig::wgmma_acc_row(lane, j) * TileWgmma::kCStride +
                          ig::wgmma_column(warp / 4, warp % 4, lane, t, ig::wgmma_acc_half(j))) %
                         32);
          REQUIRE(banks.size() == 32);
        }
  }

  TEST_CASE("wgmma variant: offered on the input_patch order with the tensor-core maths, refused elsewhere") {
    const ConvProblem s50 = testing::headline50();
    CHECK(gpu::conv::variant_name(kWgmmaTf32) == "implicit_gemm_tf32/wgmma");
    const auto parsed = gpu::conv::parse_variant("implicit_gemm_3xtf32/input_patch/wgmma");
    REQUIRE(parsed.has_value());
    CHECK(parsed->mma == ig::MmaKind::wgmma);
    CHECK(parsed->order == ig::KOrder::input_patch);
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/wgmma/wgmma").has_value());

    CHECK(gpu::conv::choice_envelope(kWgmmaTf32, s50, MathMode::tf32).ok);
    CHECK(gpu::conv::choice_envelope(kWgmma3x, s50, MathMode::fp32).ok);
    const KernelChoice ffma{.family = Family::implicit_gemm_ffma, .mma = ig::MmaKind::wgmma};
    CHECK_FALSE(gpu::conv::choice_envelope(ffma, s50, MathMode::fp32).ok);
    const KernelChoice depthwise{.family = Family::depthwise2d, .mma = ig::MmaKind::wgmma};
    CHECK_FALSE(gpu::conv::choice_envelope(depthwise, testing::headline84(), MathMode::fp32).ok);
    // Problem 76 runs channel_blocks: wgmma is not offered there.
    const Support s76 = gpu::conv::choice_envelope(kWgmmaTf32, testing::headline76(), MathMode::tf32);
    CHECK_FALSE(s76.ok);
    CHECK(s76.reason.find("input_patch") != std::string::npos);

    std::vector<std::string> names;
    for (const KernelChoice& c : gpu::conv::applicable_variants(s50, MathMode::tf32))
      names.push_back(gpu::conv::variant_name(c));
    CHECK(std::count(names.begin(), names.end(), "implicit_gemm_tf32/wgmma") == 1);
    CHECK(std::count(names.begin(), names.end(), "implicit_gemm_3xtf32/wgmma") == 1);
    // Not a default: the mma.sync kernels stay until an H200 run says otherwise.
    CHECK(gpu::conv::forward_gemm_params(as_rank3(s50), KernelChoice{Family::implicit_gemm_tf32}).mma ==
          ig::MmaKind::mma_sync);
  }

  TEST_CASE("wgmma on problem 50: descriptor, grid and shared memory (two tf32 blocks per SM)") {
    const ConvProblem p3 = as_rank3(testing::headline50());
    const ig::GemmConvParams tf32 = gpu::conv::forward_gemm_params(p3, kWgmmaTf32);
    const ig::GemmConvParams x3 = gpu::conv::forward_gemm_params(p3, kWgmma3x);
    CHECK(ig::choose_tile(tf32) == ig::TileKind::m96_wgmma);
    CHECK(ig::a_layout_for(tf32, ig::GemmMath::tf32) == ig::ALayout::wgmma_cores);
    CHECK(tf32.rows_padded == 96);
    CHECK(tf32.a_planes == 1);
    CHECK(x3.a_planes == 2);
    CHECK(ig::packed_a_size(x3) == 2 * ig::packed_a_size(tf32));
    CHECK(ig::gemm_grid(tf32).x == 256 * 12);  // 3,025 positions per image: 12 tiles of 256
    CHECK(ig::gemm_grid(tf32).y == 1);
    const std::size_t smem = ig::smem_layout(tf32).total_bytes;
    CHECK(2 * (smem + 1024) <= 233472);  // two blocks and their 1 KB reserves in an SM's 228 KB
    CHECK(ig::smem_layout(x3).total_bytes <= ig::kMaxSmemBytes);
  }

}  // TEST_SUITE

}  // namespace kbench
