// Stride-1 transposed convolutions run as the forward convolutions they equal
// (transposed/forward_equivalent.hpp): the rewrite itself, checked with the fp64 reference on random
// problems, and what the cuda backend then chooses, names and describes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuda/selection.hpp"
#include "cuda/transposed/forward_equivalent.hpp"
#include "data/host_tensors.hpp"
#include "forward_weights.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "headline_problems.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

using gpu::conv::Family;
using gpu::conv::KernelChoice;
using gpu::conv::KernelDescription;

constexpr gpu::conv::LaunchDevice kH100{132, 0};

// A random stride-1 transposed problem (rank 1 to 3, groups, dilation, kernels to 4, output_padding)
// whose paddings never crop past the full correlation, so a forward equivalent exists.
ConvProblem random_stride1_transposed(std::mt19937_64& rng) {
  gpu_tests::ShapeLimits limits;
  limits.input[0] = 30;
  limits.input[1] = 9;
  limits.input[2] = 5;
  limits.kernel[0] = limits.kernel[1] = 4;
  limits.stride = 1;
  for (;;) {
    const int rank = static_cast<int>(gpu_tests::pick(rng, 1, 3));
    ConvProblem p = gpu_tests::random_problem(rng, OpKind::conv_transpose, rank, gpu_tests::pick(rng, 1, 3),
                                              gpu_tests::pick(rng, 1, 3), limits);
    if (gpu::conv::forward_equivalent(p)) return p;
  }
}

std::string property(const KernelDescription& d, const std::string& key) {
  for (const auto& [k, v] : d.properties)
    if (k == key) return v;
  FAIL("no property '" << key << "' in " << d.implementation);
  return {};
}

ConvProblem transposed_depthwise_same(std::int64_t k) {  // depthwise k x k, "same" padding
  return ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 4, .in_channels = 32, .out_channels = 32,
                     .groups = 32, .input = Dims{{64, 64, 1}}, .kernel = Dims{{k, k, 1}},
                     .pad_before = Dims{{(k - 1) / 2, (k - 1) / 2, 0}},
                     .pad_after = Dims{{(k - 1) / 2, (k - 1) / 2, 0}}, .bias = true};
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("a stride-1 transposed convolution equals its forward equivalent (fp64 reference, random problems)") {
    std::mt19937_64 rng(testing::test_seed(7701));
    int with_output_padding = 0, grouped = 0, cropped = 0;
    for (int trial = 0; trial < 150; ++trial) {
      const ConvProblem p = random_stride1_transposed(rng);
      const std::optional<ConvProblem> f = gpu::conv::forward_equivalent(p);
      REQUIRE(f.has_value());
      CAPTURE(trial);
      CHECK_FALSE(f->transposed());
      REQUIRE(validate_problem(*f));
      REQUIRE(f->output() == p.output());
      REQUIRE(f->weight_elements() == p.weight_elements());
      const data::HostTensors t = data::make_host_tensors(p, 100 + static_cast<std::uint64_t>(trial));
      data::HostTensors tf = t;
      tf.weight = gpu_tests::forward_weights(*f, t.weight);
      const std::vector<double> want = reference::convolve(p, t);
      const std::vector<double> got = reference::convolve(*f, tf);
      REQUIRE(got.size() == want.size());
      double worst = 0.0;
      for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
      CHECK(worst < 1e-12);  // the same products, summed in another order
      for (int d = 0; d < p.spatial_rank; ++d) {
        with_output_padding += p.output_padding[d] > 0 ? 1 : 0;
        cropped += p.pad_before[d] > 0 || p.pad_after[d] > 0 ? 1 : 0;
      }
      grouped += p.groups > 1 ? 1 : 0;
    }
    // The draws reach what the rewrite handles specially.
    CHECK(with_output_padding > 0);
    CHECK(grouped > 0);
    CHECK(cropped > 0);
  }

  TEST_CASE("the forward weights are a permutation of the transposed ones") {
    std::mt19937_64 rng(testing::test_seed(7702));
    for (int trial = 0; trial < 50; ++trial) {
      const ConvProblem p = random_stride1_transposed(rng);
      const ConvProblem f = *gpu::conv::forward_equivalent(p);
      std::vector<int> hits(static_cast<std::size_t>(p.weight_elements()), 0);
      for (std::int64_t i = 0; i < f.weight_elements(); ++i) {
        const std::int64_t src = gpu::conv::transposed_weight_source(f, i);
        REQUIRE(src >= 0);
        REQUIRE(src < p.weight_elements());
        ++hits[static_cast<std::size_t>(src)];
      }
      CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
    }
  }

  TEST_CASE("no forward equivalent: strides above 1, paddings that crop past the full correlation, forward problems") {
    ConvProblem p = transposed_depthwise_same(3);
    REQUIRE(gpu::conv::forward_equivalent(p).has_value());
    CHECK(gpu::conv::forward_equivalent(p)->pad_before == Dims{{1, 1, 0}});
    ConvProblem strided = p;
    strided.stride[1] = 2;
    CHECK_FALSE(gpu::conv::forward_equivalent(strided).has_value());
    ConvProblem cropped = p;
    cropped.pad_before[0] = 3;  // beyond (3 - 1) x 1
    REQUIRE(validate_problem(cropped));
    CHECK_FALSE(gpu::conv::forward_equivalent(cropped).has_value());
    ConvProblem forward = p;
    forward.op = OpKind::conv;
    CHECK_FALSE(gpu::conv::forward_equivalent(forward).has_value());
    // Problem 77 (stride 2) stays on the phase GEMMs.
    CHECK_FALSE(gpu::conv::forward_equivalent(testing::headline77()).has_value());
    CHECK(gpu::conv::default_family(testing::headline77(), MathMode::tf32) == Family::transposed_phase_tf32);
  }

  TEST_CASE("stride-1 transposed convolutions take the forward kernels, named /as_forward") {
    // Depthwise 3x3 "same": the register depthwise kernel, centred, which no transposed path has.
    const ConvProblem dw = transposed_depthwise_same(3);
    CHECK(gpu::conv::default_family(dw, MathMode::fp32) == Family::depthwise2d);
    const KernelDescription d = gpu::conv::describe_kernel(KernelChoice{Family::depthwise2d}, dw, kH100);
    CHECK(d.implementation == "depthwise2d/k3_centred/as_forward");
    CHECK(property(d, "launches") == "2 (forward weights, kernel)");
    CHECK(property(d, "as_forward").find("padding 1+1 x 1+1") != std::string::npos);

    // Full transposed depthwise 5x5 (padding 0): forward padding 4, outside depthwise2d; direct_tiled's
    // unrolled forward 5x5 instance.
    const ConvProblem full =
        ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 2, .in_channels = 16, .out_channels = 16,
                    .groups = 16, .input = Dims{{40, 40, 1}}, .kernel = Dims{{5, 5, 1}}};
    CHECK(gpu::conv::default_family(full, MathMode::fp32) == Family::direct_tiled);
    const Support dw_full = gpu::conv::family_envelope(Family::depthwise2d, full, MathMode::fp32);
    CHECK_FALSE(dw_full);
    CHECK(dw_full.reason ==
          "depthwise2d: left padding must be 0 or (kernel - 1) / 2 (as the forward convolution this "
          "stride-1 transposed one equals, padding 4+4 x 4+4)");
    CHECK(gpu::conv::describe_kernel(KernelChoice{Family::direct_tiled}, full, kH100).implementation ==
          "direct_tiled/k5/as_forward");

    // Few input channels and a large kernel, rows of a multiple of 4 floats: the forward GEMM in the
    // input_patch order, which the phase GEMMs do not have.
    const ConvProblem few =
        ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 4, .in_channels = 3, .out_channels = 32,
                    .input = Dims{{64, 64, 1}}, .kernel = Dims{{7, 7, 1}}, .pad_before = Dims{{3, 3, 0}},
                    .pad_after = Dims{{3, 3, 0}}, .bias = true};
    CHECK(gpu::conv::default_family(few, MathMode::tf32) == Family::implicit_gemm_tf32);
    const KernelDescription patch = gpu::conv::describe_kernel(KernelChoice{Family::implicit_gemm_tf32}, few, kH100);
    CHECK(patch.implementation == "implicit_gemm_tf32/input_patch/64x256/as_forward");
    CHECK(property(patch, "launches") == "3 (forward weights, pack weights, GEMM)");

    // A dense stride-1 transposed layer: its forward GEMM would be the phase GEMM (channel blocks,
    // streamed A) plus the weights' launch, so the phase GEMM stays the default; forced, the forward
    // GEMM runs, and here (32 column tiles on 132 SMs) splits its reduction: four launches in all.
    const ConvProblem dense =
        ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 8, .in_channels = 64, .out_channels = 32,
                    .input = Dims{{32, 32, 1}}, .kernel = Dims{{3, 3, 1}}, .pad_before = Dims{{1, 1, 0}},
                    .pad_after = Dims{{1, 1, 0}}, .bias = true};
    CHECK(gpu::conv::default_family(dense, MathMode::tf32) == Family::transposed_phase_tf32);
    const KernelDescription g = gpu::conv::describe_kernel(KernelChoice{Family::implicit_gemm_tf32}, dense, kH100);
    CHECK(g.implementation == "implicit_gemm_tf32/channel_blocks/64x128/split_k/as_forward");
    CHECK(property(g, "launches") == "4 (forward weights, pack weights, GEMM, split-K reduction)");
    CHECK(property(g, "gemm") == "M 32 x N 8192 x K 576 (9 taps), 1 group(s)");

    // The phase GEMMs and `direct` still run the problem as it is, for comparison.
    const std::vector<KernelChoice> all = gpu::conv::applicable_variants(dense, MathMode::tf32);
    const auto listed = [&](Family f) {
      return std::any_of(all.begin(), all.end(), [&](const KernelChoice& c) { return c == KernelChoice{f}; });
    };
    CHECK(listed(Family::implicit_gemm_tf32));
    CHECK(listed(Family::direct));
    CHECK(all.front() == KernelChoice{Family::transposed_phase_tf32});
    const KernelDescription phase =
        gpu::conv::describe_kernel(KernelChoice{Family::transposed_phase_tf32}, dense, kH100);
    CHECK(phase.implementation.starts_with("transposed_phase_tf32/"));
    CHECK(phase.implementation.find("as_forward") == std::string::npos);
    CHECK(gpu::conv::describe_kernel(KernelChoice{Family::direct}, dense, kH100).implementation == "direct");

    // A crop past the full correlation has no forward equivalent: the phase GEMM, and no forward family.
    ConvProblem cropped = dense;
    cropped.pad_before = cropped.pad_after = Dims{{3, 3, 0}};
    REQUIRE(validate_problem(cropped));
    CHECK(gpu::conv::default_family(cropped, MathMode::tf32) == Family::transposed_phase_tf32);
    CHECK_FALSE(gpu::conv::family_envelope(Family::implicit_gemm_tf32, cropped, MathMode::tf32));
  }

  TEST_CASE("every variant of random stride-1 transposed problems: the forward ones named /as_forward") {
    std::mt19937_64 rng(testing::test_seed(7703));
    int forward_variants = 0, gemm = 0;
    for (int trial = 0; trial < 100; ++trial) {
      const ConvProblem p = random_stride1_transposed(rng);
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        const std::vector<KernelChoice> variants = gpu::conv::applicable_variants(p, math);
        REQUIRE_FALSE(variants.empty());
        CHECK(variants.front() == KernelChoice{gpu::conv::default_family(p, math)});
        for (const KernelChoice& c : variants) {
          CAPTURE(gpu::conv::variant_name(c));
          const KernelDescription d = gpu::conv::describe_kernel(c, p, kH100);
          const bool forward = c.family != Family::direct && !gpu::conv::is_transposed_phase(c.family);
          CHECK(d.implementation.ends_with("/as_forward") == forward);
          forward_variants += forward ? 1 : 0;
          gemm += gpu::conv::is_implicit_gemm(c.family) ? 1 : 0;
        }
      }
    }
    CHECK(forward_variants > 0);
    CHECK(gemm > 0);
  }

}  // TEST_SUITE
}  // namespace kbench
