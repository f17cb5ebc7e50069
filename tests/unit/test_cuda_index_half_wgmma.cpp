// The fp16/bf16 GEMM's wgmma variant (half_gemm/half_wgmma_index.hpp) against brute force: each k16
// step's descriptors address exactly the element the loads put there, every element of a stage's
// operand tile once and inside it; each chunk's loads cover the tile once, 16 contiguous aligned bytes
// a piece, each 8-thread wavefront on distinct banks; the accumulators are the PTX ISA's m64nNk16 D
// layout, each element of the 64 x 64 tile held once; and where the selection offers the variant.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuda/common/wgmma_desc.hpp"
#include "cuda/half_gemm/half_wgmma_index.hpp"
#include "cuda/selection.hpp"
#include "headline_problems.hpp"

namespace kbench {
namespace {

namespace hg = gpu::conv::half_gemm;
using gpu::conv::Family;
using gpu::conv::KernelChoice;

const KernelChoice kHalfWgmma{.family = Family::implicit_gemm_half, .mma = gpu::conv::igemm::MmaKind::wgmma};

ConvProblem as_half(ConvProblem p, DType dtype, Layout layout) {
  p.dtype = dtype;
  p.layout = layout;
  return p;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("half wgmma: each k16 step's descriptors address the loaded element, every element once per stage") {
    for (int stage = 0; stage < hg::kWgmmaStages; ++stage) {
      const std::uint32_t stage_bytes = 2u * static_cast<std::uint32_t>(stage * hg::kWgmmaStageHalves);
      for (int operand = 0; operand < 2; ++operand) {  // A, then B
        const std::uint32_t tile = stage_bytes + 2u * static_cast<std::uint32_t>(operand * hg::kWgmmaOperandHalves);
        std::set<std::uint32_t> addresses;
        for (int step = 0; step < hg::kTileK / 16; ++step) {
          const std::uint64_t desc = gpu::conv::wgmma_descriptor(tile + hg::wgmma_step_bytes(step),
                                                                 hg::kWgmmaKStrideBytes, hg::kWgmmaMnStrideBytes);
          for (int k = 0; k < 16; ++k)
            for (int mn = 0; mn < hg::kTileM; ++mn) {
              const std::uint32_t at = gpu::conv::wgmma_half_element_address(desc, k, mn);
              REQUIRE(at == tile + 2u * static_cast<std::uint32_t>(hg::wgmma_tile_offset(mn, 16 * step + k)));
              REQUIRE(at >= tile);
              REQUIRE(at + 2 <= tile + 2u * hg::kWgmmaOperandHalves);
              REQUIRE(addresses.insert(at).second);
            }
        }
        CHECK(addresses.size() == static_cast<std::size_t>(hg::kWgmmaOperandHalves));
      }
    }
    CHECK(hg::kWgmmaSmemBytes == hg::kWgmmaStages * hg::kWgmmaStageHalves * 2);
    CHECK(hg::kWgmmaSmemBytes <= 48 * 1024);  // no opt-in needed
  }

  TEST_CASE("half wgmma: each chunk's vector loads cover the tile once, 16 aligned bytes each, conflict-free") {
    std::set<std::pair<int, int>> cells;
    for (int t = 0; t < hg::kThreads; ++t)
      for (int r = 0; r < hg::kWgmmaVectorPieces; ++r) {
        const int row = hg::wgmma_vector_row(t, r), k = hg::wgmma_vector_segment(t) * hg::kVector;
        REQUIRE(row < hg::kTileM);
        REQUIRE(k < hg::kTileK);
        const int first = hg::wgmma_tile_offset(row, k);
        CHECK(first % hg::kVector == 0);  // 16-byte aligned
        for (int e = 0; e < hg::kVector; ++e) {
          CHECK(hg::wgmma_tile_offset(row, k + e) == first + e);
          CHECK(cells.insert({row, k + e}).second);
        }
      }
    CHECK(cells.size() == static_cast<std::size_t>(hg::kTileM * hg::kTileK));
    // 16-byte stores go to shared memory 8 threads at a time: 8 distinct 16-byte bank groups each.
    for (int r = 0; r < hg::kWgmmaVectorPieces; ++r)
      for (int t0 = 0; t0 < hg::kThreads; t0 += 8) {
        std::set<int> groups;
        for (int t = t0; t < t0 + 8; ++t)
          groups.insert(hg::wgmma_tile_offset(hg::wgmma_vector_row(t, r), hg::wgmma_vector_segment(t) * hg::kVector) /
                        hg::kVector % 8);
        CHECK(groups.size() == 8);
      }
    // The gathers write every element of the tile once as well (the mma.sync kernel's element mapping).
    std::set<int> gathered;
    for (int t = 0; t < hg::kThreads; ++t)
      for (int r = 0; r < hg::kElementPieces; ++r)
        CHECK(gathered.insert(hg::wgmma_tile_offset(hg::element_row(t), hg::element_col(t, r))).second);
    CHECK(gathered.size() == static_cast<std::size_t>(hg::kWgmmaOperandHalves));
    CHECK(*gathered.rbegin() == hg::kWgmmaOperandHalves - 1);
  }

  TEST_CASE("half wgmma: accumulators are the PTX ISA's m64nNk16 layout, each element of the tile once") {
    // PTX ISA, "Matrix fragments for wgmma .m64nNk16", D: warp w of the warpgroup owns rows 16w..16w+15;
    // d[4j + e] at row gid + 8 (e / 2), column 8 j + 2 tig + e % 2.
    std::set<std::pair<int, int>> held;
    for (int t = 0; t < hg::kThreads; ++t) {
      const int w = t / 32, gid = t % 32 / 4, tig = t % 4;
      for (int i = 0; i < hg::kWgmmaAccumulators; ++i) {
        const int j = i / 4, e = i % 4;
        CHECK(hg::wgmma_c_row(t, i) == 16 * w + gid + 8 * (e / 2));
        CHECK(hg::wgmma_c_col(t, i) == 8 * j + 2 * tig + e % 2);
        CHECK(held.insert({hg::wgmma_c_row(t, i), hg::wgmma_c_col(t, i)}).second);
      }
    }
    CHECK(held.size() == static_cast<std::size_t>(hg::kTileM * hg::kTileN));
    CHECK(held.rbegin()->first == hg::kTileM - 1);
    CHECK(held.rbegin()->second == hg::kTileN - 1);
  }

  TEST_CASE("half wgmma: offered last wherever implicit_gemm_half applies, needing compute capability 9.0") {
    for (const DType dtype : {DType::fp16, DType::bf16})
      for (const Layout layout : {Layout::nhwc, Layout::nchw})
        for (const ConvProblem& seed : {testing::headline50(), testing::headline76()}) {
          const ConvProblem p = as_half(seed, dtype, layout);
          CAPTURE(to_string(dtype));
          CAPTURE(to_string(layout));
          const std::vector<KernelChoice> variants = gpu::conv::applicable_variants(p, MathMode::fp32);
          REQUIRE_FALSE(variants.empty());
          CHECK(variants.front() == KernelChoice{.family = Family::implicit_gemm_half});
          CHECK(variants.back() == kHalfWgmma);
          CHECK(std::count(variants.begin(), variants.end(), kHalfWgmma) == 1);
          CHECK(gpu::conv::variant_name(variants.back()) == "implicit_gemm_half/wgmma");
          // Problem 50's 3 channels gather in either layout; problem 76's 64 copy 16 bytes under NHWC.
          const bool copies = layout == Layout::nhwc && p.in_channels_per_group() % 8 == 0;
          CHECK(gpu::conv::describe_kernel(kHalfWgmma, p, {}).implementation ==
                std::string("implicit_gemm_half/") + (copies ? "cp_async16" : "gathered") + "/64x64/wgmma");
        }
    const std::optional<gpu::conv::ArchitectureNeed> need = gpu::conv::architecture_need(kHalfWgmma);
    REQUIRE(need.has_value());
    CHECK(need->feature == "wgmma");
    CHECK(need->accepts(9, 0));
    CHECK_FALSE(need->accepts(8, 0));
    CHECK_FALSE(need->accepts(10, 0));
    CHECK_FALSE(gpu::conv::architecture_need(KernelChoice{.family = Family::implicit_gemm_half}).has_value());
    CHECK_FALSE(gpu::conv::architecture_need(
                    KernelChoice{.family = Family::implicit_gemm_half, .mma = gpu::conv::igemm::MmaKind::mma_sync})
                    .has_value());
    // Outside the family's envelope (transposed, fp32) the variant is refused for the family's reason.
    ConvProblem transposed = testing::headline77();
    transposed.dtype = DType::fp16;
    CHECK(gpu::conv::choice_envelope(kHalfWgmma, transposed, MathMode::fp32).reason ==
          "implicit_gemm_half: forward convolutions only");
    CHECK(gpu::conv::choice_envelope(kHalfWgmma, testing::headline76(), MathMode::fp32).reason ==
          "implicit_gemm_half: does not compute fp32 tensors");
    for (const KernelChoice& c : gpu::conv::applicable_variants(transposed, MathMode::fp32)) CHECK(c != kHalfWgmma);
  }
}

}  // namespace kbench
