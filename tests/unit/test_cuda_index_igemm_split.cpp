// Split-K of the implicit GEMM (igemm_split_index.hpp): the splits' chunk ranges, the workspace
// layout, the grid's z, how many splits a device gets, the no_split_k variant and how `kbench plan` names
// a split kernel. The kernels themselves run split under the CPU emulation (test_emulated_igemm.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuda/implicit_gemm/igemm_split_index.hpp"
#include "cuda/selection.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;
using gpu::conv::Family;
using gpu::conv::KernelChoice;
using gpu::conv::LaunchDevice;

constexpr int kH200Sms = 132;
const KernelChoice kNoSplit{
    Family::implicit_gemm_tf32, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, ig::SplitK::none};

// A 2-D convolution without bias or padding options beyond `pad`: the layer shapes below.
ConvProblem layer(std::int64_t n, std::int64_t cin, std::int64_t cout, std::int64_t hw, std::int64_t k,
                  std::int64_t pad) {
  ConvProblem p;
  p.spatial_rank = 2;
  p.batch = n;
  p.in_channels = cin;
  p.out_channels = cout;
  p.input = Dims{{hw, hw, 1}};
  p.kernel = Dims{{k, k, 1}};
  p.pad_before = p.pad_after = Dims{{pad, pad, 0}};
  REQUIRE(validate_problem(p));
  return p;
}

// The default tf32 descriptor of a forward problem as it launches on `sms` SMs.
ig::GemmConvParams on_sms(const ConvProblem& p, int sms,
                        const KernelChoice& c = KernelChoice{Family::implicit_gemm_tf32}) {
  return gpu::conv::gemm_on_device(gpu::conv::forward_gemm_params(as_rank3(p), c), LaunchDevice{sms, 0},
                                   gpu::conv::split_of(c));
}

std::string property(const gpu::conv::KernelDescription& d, const std::string& key) {
  for (const auto& [k, v] : d.properties)
    if (k == key) return v;
  FAIL("no property '" << key << "' in " << d.implementation);
  return {};
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("split-K: the splits' chunk ranges cover the reduction once, in order, as evenly as the count allows") {
    std::mt19937_64 rng(kbench::testing::test_seed(4096));
    for (int trial = 0; trial < 2000; ++trial) {
      ig::GemmConvParams d;
      d.chunks = test::pick(rng, 1, 600);
      d.splits = test::pick(rng, 1, 40);
      std::int64_t next = 0, smallest = d.chunks, largest = 0;
      for (std::int64_t s = 0; s < d.splits; ++s) {
        const ig::ChunkRange r = ig::split_chunk_range(d, s);
        REQUIRE(r.begin == next);
        REQUIRE(r.end >= r.begin);
        smallest = std::min(smallest, r.end - r.begin);
        largest = std::max(largest, r.end - r.begin);
        next = r.end;
      }
      CHECK(next == d.chunks);
      CHECK(largest - smallest <= 1);
    }
  }

  TEST_CASE(
      "split-K: the workspace holds each (split, group, row, column) once, columns adjacent, and z holds group and "
      "split") {
    std::mt19937_64 rng(kbench::testing::test_seed(4097));
    for (int trial = 0; trial < 50; ++trial) {
      ig::GemmConvParams d;
      d.splits = test::pick(rng, 2, 6);
      d.groups = test::pick(rng, 1, 4);
      d.rows = test::pick(rng, 1, 20);
      d.columns = test::pick(rng, 1, 50);
      std::vector<int> seen(static_cast<std::size_t>(ig::partial_floats(d)), 0);
      for (std::int64_t s = 0; s < d.splits; ++s)
        for (std::int64_t g = 0; g < d.groups; ++g) {
          const std::int64_t z = s * d.groups + g;
          CHECK(ig::split_of_z(d, z) == s);
          CHECK(ig::group_of_z(d, z) == g);
          for (std::int64_t m = 0; m < d.rows; ++m)
            for (std::int64_t n = 0; n < d.columns; ++n) {
              const std::int64_t i = ig::partial_index(d, s, g, m, n);
              REQUIRE(i >= 0);
              REQUIRE(i < ig::partial_floats(d));
              ++seen[static_cast<std::size_t>(i)];
              if (n > 0) CHECK(i == ig::partial_index(d, s, g, m, n - 1) + 1);
            }
        }
      CHECK(std::all_of(seen.begin(), seen.end(), [](int v) { return v == 1; }));
      CHECK(ig::gemm_grid(d).z == d.groups * d.splits);
    }
    ig::GemmConvParams whole;
    whole.groups = 3;
    CHECK(ig::partial_floats(whole) == 0);  // unsplit: no workspace
    CHECK(ig::group_of_z(whole, 2) == 2);   // and z is the group, as before split-K
  }

  TEST_CASE("split-K on an H200: small-batch layers that leave most SMs idle split, the seeds and large grids do not") {
    // ResNet's last 3x3 at batch 1: M 512 x N 49, 4 blocks of 128x256 walking 288 chunks -> 32 splits of 9.
    const ig::GemmConvParams late = on_sms(layer(1, 512, 512, 7, 3, 1), kH200Sms);
    CHECK(late.chunks == 288);
    CHECK(ig::gemm_blocks(late) == 4);
    CHECK(late.splits == 32);
    // Its 14x14 stage at batch 8: 14 blocks, 144 chunks -> 9 splits of 16 (126 blocks).
    const ig::GemmConvParams mid = on_sms(layer(8, 256, 256, 14, 3, 1), kH200Sms);
    CHECK(ig::gemm_blocks(mid) == 14);
    CHECK(mid.splits == 9);
    // A 1x1 from 512 channels at batch 8: 25 blocks, 32 chunks -> 4 splits of 8 (the fewest a split takes).
    const ig::GemmConvParams pointwise = on_sms(layer(8, 512, 128, 28, 1, 0), kH200Sms);
    CHECK(ig::gemm_blocks(pointwise) == 25);
    CHECK(pointwise.splits == 4);
    // Its 56x56 stage at batch 32: 784 blocks already.
    CHECK(on_sms(layer(32, 64, 64, 56, 3, 1), kH200Sms).splits == 1);
    // Unknown SMs, and no_split_k: whole.
    CHECK(on_sms(layer(1, 512, 512, 7, 3, 1), 0).splits == 1);
    CHECK(on_sms(layer(1, 512, 512, 7, 3, 1), kH200Sms, kNoSplit).splits == 1);

    // The seeds keep their predicted kernels: 50 input_patch, 76 resident A, 77 a phase GEMM of
    // 4,096 column tiles: none splits, in either math, on an H200 or an A100.
    for (const int sms : {kH200Sms, 108})
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        for (const ConvProblem& p : {testing::headline50(), testing::headline76()})
          CHECK(on_sms(p, sms, KernelChoice{gpu::conv::default_family(p, math)}).splits == 1);
        for (const gpu::conv::PhaseGemm& g : gpu::conv::transposed_gemms(as_rank3(testing::headline77())))
          CHECK(gpu::conv::gemm_on_device(g.desc, LaunchDevice{sms, 0}).splits == 1);
      }
  }

  TEST_CASE("split-K: a split grid fills at most one block per SM, every split reduces 8 chunks or more") {
    std::mt19937_64 rng(kbench::testing::test_seed(4098));
    int split = 0;
    for (int trial = 0; trial < 3000; ++trial) {
      ig::GemmConvParams d;
      d.order = test::pick(rng, 0, 1) == 0 ? ig::KOrder::channel_blocks : ig::KOrder::k_table;
      d.groups = test::pick(rng, 1, 8);
      d.rows = test::pick(rng, 1, 600);
      d.rows_padded = (d.rows + 127) / 128 * 128;
      d.columns = test::pick(rng, 1, 20000);
      d.chunks = test::pick(rng, 1, 500);
      const int sms = static_cast<int>(test::pick(rng, 1, 200));
      d.splits = ig::choose_splits(d, sms);
      CAPTURE(d.chunks);
      CAPTURE(sms);
      REQUIRE(d.splits >= 1);
      if (d.splits == 1) continue;
      ++split;
      CHECK(ig::gemm_blocks(d) * 2 <= sms);  // the unsplit grid left half the SMs idle or more
      CHECK(ig::gemm_blocks(d) * d.splits <= sms);
      CHECK(d.splits <= ig::kMaxSplits);
      CHECK(d.chunks / d.splits >= ig::kMinChunksPerSplit);
    }
    CHECK(split > 100);
    // What cannot split never does.
    ig::GemmConvParams d;
    d.chunks = 400;
    for (const auto& [order, schedule, mma] :
         {std::tuple{ig::KOrder::input_patch, ig::ASchedule::streamed, ig::MmaKind::mma_sync},
          std::tuple{ig::KOrder::channel_blocks, ig::ASchedule::resident, ig::MmaKind::mma_sync},
          std::tuple{ig::KOrder::input_patch, ig::ASchedule::streamed, ig::MmaKind::wgmma}}) {
      d.order = order;
      d.a_schedule = schedule;
      d.mma = mma;
      CHECK_FALSE(ig::split_support(d).ok);
      CHECK(ig::choose_splits(d, kH200Sms) == 1);
    }
  }

  TEST_CASE("no_split_k: a variant of the GEMMs a device might split, ruled out on a device that would not") {
    const ConvProblem late = layer(1, 512, 512, 7, 3, 1);
    const ConvProblem wide = layer(32, 64, 64, 56, 3, 1);
    CHECK(gpu::conv::variant_name(kNoSplit) == "implicit_gemm_tf32/no_split_k");
    REQUIRE(gpu::conv::parse_variant("implicit_gemm_tf32/no_split_k") == kNoSplit);
    CHECK(gpu::conv::parse_variant("implicit_gemm_tf32/k_table/no_split_k").has_value());
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/no_split_k/no_split_k").has_value());
    CHECK(gpu::conv::parse_variant("transposed_phase_tf32/no_split_k").has_value());

    // Listed where the reduction is long enough to split (whatever the device), for each GEMM family.
    const auto listed = [](const ConvProblem& p, MathMode math, const std::string& name) {
      for (const KernelChoice& c : gpu::conv::applicable_variants(p, math))
        if (gpu::conv::variant_name(c) == name) return true;
      return false;
    };
    CHECK(listed(late, MathMode::tf32, "implicit_gemm_tf32/no_split_k"));
    CHECK(listed(late, MathMode::fp32, "implicit_gemm_3xtf32/no_split_k"));
    CHECK(listed(late, MathMode::fp32, "implicit_gemm_ffma/no_split_k"));
    CHECK(listed(wide, MathMode::tf32, "implicit_gemm_tf32/no_split_k"));
    // Not where the default never splits: input_patch (problem 50), resident A (problem 76), 3 chunks.
    CHECK_FALSE(listed(testing::headline50(), MathMode::tf32, "implicit_gemm_tf32/no_split_k"));
    CHECK_FALSE(listed(testing::headline76(), MathMode::tf32, "implicit_gemm_tf32/no_split_k"));
    const Support short_reduction = gpu::conv::choice_envelope(kNoSplit, layer(1, 16, 64, 8, 1, 0), MathMode::tf32);
    CHECK_FALSE(short_reduction);
    CHECK(short_reduction.reason.find("too short to split") != std::string::npos);
    // Only the GEMM families split.
    const KernelChoice direct{.family = Family::direct_tiled, .split = ig::SplitK::none};
    CHECK(gpu::conv::choice_envelope(direct, late, MathMode::fp32).reason ==
          "direct_tiled: its variants force no reduction split ('no_split_k')");

    // On the device: different from the default only where the default splits.
    CHECK(gpu::conv::split_variant_on_device(kNoSplit, late, kH200Sms));
    const Support same = gpu::conv::split_variant_on_device(kNoSplit, wide, kH200Sms);
    CHECK_FALSE(same);
    CHECK(same.reason.find("does not split") != std::string::npos);
    CHECK(gpu::conv::split_variant_on_device(kNoSplit, wide, 0));  // SMs unknown: kept
    CHECK(gpu::conv::split_variant_on_device(KernelChoice{Family::implicit_gemm_tf32}, wide, kH200Sms));
  }

  TEST_CASE("split-K as kbench plan describes it: the kernel's name ends in /split_k, its facts say how it splits") {
    const ConvProblem late = layer(1, 512, 512, 7, 3, 1);
    const gpu::conv::KernelDescription d =
        gpu::conv::describe_kernel(KernelChoice{Family::implicit_gemm_tf32}, late, LaunchDevice{kH200Sms, 0});
    CHECK(d.implementation == "implicit_gemm_tf32/channel_blocks/128x256/split_k");
    CHECK(
        property(d, "split_k") ==
        "32 splits of 9 chunks (144 reduction rows) or more; 3211264 bytes of partial tiles summed by a second kernel");
    CHECK(property(d, "launches") == "3 (pack weights, GEMM, split-K reduction)");
    const gpu::conv::KernelDescription whole = gpu::conv::describe_kernel(kNoSplit, late, LaunchDevice{kH200Sms, 0});
    CHECK(whole.implementation == "implicit_gemm_tf32/channel_blocks/128x256");
    CHECK(property(whole, "split_k") == "none (no_split_k)");
    CHECK(property(whole, "launches") == "2 (pack weights, GEMM)");
    const gpu::conv::KernelDescription unknown =
        gpu::conv::describe_kernel(KernelChoice{Family::implicit_gemm_tf32}, late, LaunchDevice{});
    CHECK(unknown.implementation == whole.implementation);
    CHECK(property(unknown, "split_k").find("counted on the device") != std::string::npos);

    // A transposed convolution at batch 1 with a long reduction: its phase GEMMs split too.
    ConvProblem up = layer(1, 512, 256, 4, 4, 1);
    up.op = OpKind::conv_transpose;
    up.stride = Dims{{2, 2, 1}};
    REQUIRE(validate_problem(up));
    const gpu::conv::KernelDescription t =
        gpu::conv::describe_kernel(KernelChoice{Family::transposed_phase_tf32}, up, LaunchDevice{kH200Sms, 0});
    CHECK(t.implementation.ends_with("/split_k"));
    CHECK(property(t, "gemm_0").find("split_k") != std::string::npos);
  }

}  // TEST_SUITE

}  // namespace kbench
