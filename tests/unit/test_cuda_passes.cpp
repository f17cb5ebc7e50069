// The cuda backend's passes (cuda/passes/): a backward_data problem runs as the forward pass of its
// backward_data_problem, with every family choice, variant and default of that problem, described as
// such; it is refused with the reason where it has no forward form. The operands each pass's kernels
// take from the run's four buffers.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "cuda/selection.hpp"
#include "cuda/passes/pass_operands.hpp"
#include "problem/conv_pass.hpp"
#include "problem/problem_metrics.hpp"
#include "problem_factory.hpp"
#include "headline_problems.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

using gpu::conv::Family;
using gpu::conv::KernelChoice;

ConvProblem with_pass(ConvProblem p, Pass pass) {
  p.pass = pass;
  return p;
}

std::string property(const gpu::conv::KernelDescription& d, const std::string& key) {
  for (const auto& [k, v] : d.properties)
    if (k == key) return v;
  return "";
}

}  // namespace

TEST_SUITE("cuda_passes") {
  TEST_CASE("pass operands: each pass reads and writes the run's buffers its problem names") {
    int x = 0, w = 0, b = 0, y = 0;
    const gpu::conv::Operands fwd = gpu::conv::pass_operands(Pass::forward, &x, &w, &b, &y);
    CHECK((fwd.x == static_cast<void*>(&x) && fwd.w == static_cast<void*>(&w) && fwd.bias == static_cast<void*>(&b) &&
           fwd.y == static_cast<void*>(&y)));
    // backward_data: its forward problem reads grad_output (y's buffer) and writes grad_input (x's); no bias.
    const gpu::conv::Operands bd = gpu::conv::pass_operands(Pass::backward_data, &x, &w, &b, &y);
    CHECK((bd.x == static_cast<void*>(&y) && bd.w == static_cast<void*>(&w) && bd.bias == nullptr &&
           bd.y == static_cast<void*>(&x)));
    CHECK((bd.dy == nullptr && bd.dw == nullptr && bd.db == nullptr));
    const gpu::conv::Operands bw = gpu::conv::pass_operands(Pass::backward_weights, &x, &w, &b, &y);
    CHECK((bw.x == static_cast<void*>(&x) && bw.dy == static_cast<void*>(&y) && bw.dw == static_cast<void*>(&w) &&
           bw.db == static_cast<void*>(&b)));
    CHECK((bw.w == nullptr && bw.bias == nullptr && bw.y == nullptr));
  }

  TEST_CASE("backward_data runs as the forward pass of its backward_data_problem: families, variants, default") {
    std::mt19937_64 rng(testing::test_seed(2601));
    int checked = 0;
    std::vector<ConvProblem> problems = {
        with_pass(testing::headline50(), Pass::backward_data), with_pass(testing::headline76(), Pass::backward_data),
        with_pass(testing::headline77(), Pass::backward_data), with_pass(testing::headline84(), Pass::backward_data)};
    for (int i = 0; i < 60; ++i) {
      const OpKind op = i % 2 ? OpKind::conv_transpose : OpKind::conv;
      ConvProblem p =
          gpu_tests::random_problem(rng, op, 1 + i % 3, gpu_tests::pick(rng, 1, 9), gpu_tests::pick(rng, 1, 9));
      problems.push_back(with_pass(p, Pass::backward_data));
    }
    for (const ConvProblem& p : problems) {
      CAPTURE(describe(p));
      if (!backward_data_support(p)) {
        const Support s = gpu::conv::problem_supported(p);
        CHECK_FALSE(s.ok);
        CHECK(s.reason.find("backward_data") != std::string::npos);
        continue;
      }
      const ConvProblem q = backward_data_problem(p);
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        CHECK(gpu::conv::problem_supported(p).ok == gpu::conv::problem_supported(q).ok);
        CHECK(gpu::conv::applicable_families(p, math) == gpu::conv::applicable_families(q, math));
        const std::vector<KernelChoice> variants = gpu::conv::applicable_variants(p, math);
        CHECK(variants == gpu::conv::applicable_variants(q, math));
        CHECK(gpu::conv::default_family(p, math) == gpu::conv::default_family(q, math));
        for (const KernelChoice& c : variants) {
          const gpu::conv::LaunchDevice device{132, 0};
          const gpu::conv::KernelDescription dp = gpu::conv::describe_kernel(c, p, device);
          const gpu::conv::KernelDescription dq = gpu::conv::describe_kernel(c, q, device);
          CHECK(dp.implementation == dq.implementation + "/backward_data_as_forward");
          CHECK(property(dp, "pass") == "backward_data");
          CHECK(property(dp, "runs_as") == describe(q));
          CHECK(gpu::conv::split_variant_on_device(c, p, 132).ok == gpu::conv::split_variant_on_device(c, q, 132).ok);
        }
        // A family q's envelope leaves out is refused for p with q's reason, naming q.
        for (const Family f : gpu::conv::kAllFamilies) {
          const Support sp = gpu::conv::family_envelope(f, p, math);
          const Support sq = gpu::conv::family_envelope(f, q, math);
          CHECK(sp.ok == sq.ok);
          if (!sp.ok && gpu::conv::problem_supported(q).ok && gpu::conv::computes_pass(gpu::conv::descriptor(f), q))
            CHECK(sp.reason == sq.reason + gpu::conv::backward_data_context(q));
        }
      }
      ++checked;
    }
    CHECK(checked >= 30);
  }

  TEST_CASE(
      "backward_weights: wgrad_gemm_ffma alone, the default, every dtype and layout, forward untouched") {
    ConvProblem p = testing::headline76();
    p.pass = Pass::backward_weights;
    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      CHECK(gpu::conv::problem_supported(p).ok);
      CHECK(gpu::conv::default_family(p, math) == Family::wgrad_gemm_ffma);
      CHECK(gpu::conv::applicable_variants(p, math) == std::vector{KernelChoice{.family = Family::wgrad_gemm_ffma}});
      CHECK(gpu::conv::family_math(Family::wgrad_gemm_ffma) == MathMode::fp32);
    }
    const Support direct = gpu::conv::family_envelope(Family::direct, p, MathMode::fp32);
    CHECK(direct.reason == "direct: does not compute the backward_weights pass");
    // On 132 SMs problem 76's 6 tiles split K; the description says so and counts the launches.
    const gpu::conv::KernelDescription d =
        gpu::conv::describe_kernel(KernelChoice{.family = Family::wgrad_gemm_ffma}, p, gpu::conv::LaunchDevice{132, 0});
    CHECK(d.implementation == "wgrad_gemm_ffma/64x64/split_k");
    CHECK(property(d, "pass") == "backward_weights");
    CHECK(property(d, "launches") == "2 (GEMM splits, sum of splits)");
    p.bias = true;
    CHECK(property(gpu::conv::describe_kernel(KernelChoice{.family = Family::wgrad_gemm_ffma}, p,
                                              gpu::conv::LaunchDevice{132, 0}),
                   "launches") == "3 (GEMM splits, sum of splits, grad_bias)");
    // Every dtype and layout: fp16, bf16 and NHWC too, through the workspace and a storing kernel.
    for (const DType dtype : {DType::fp16, DType::bf16, DType::fp32})
      for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
        ConvProblem typed = p;
        typed.dtype = dtype;
        typed.layout = layout;
        CAPTURE(to_string(dtype));
        CAPTURE(to_string(layout));
        CHECK(gpu::conv::problem_supported(typed).ok);
        CHECK(gpu::conv::default_family(typed, MathMode::fp32) == Family::wgrad_gemm_ffma);
      }
    ConvProblem half = p;
    half.dtype = DType::bf16;
    half.layout = Layout::nhwc;
    CHECK(property(gpu::conv::describe_kernel(KernelChoice{.family = Family::wgrad_gemm_ffma}, half,
                                              gpu::conv::LaunchDevice{132, 0}),
                   "launches") == "3 (GEMM splits, sum of splits, grad_bias)");
    half.bias = false;
    CHECK(property(gpu::conv::describe_kernel(KernelChoice{.family = Family::wgrad_gemm_ffma}, half,
                                              gpu::conv::LaunchDevice{1, 0}),
                   "launches") == "2 (GEMM, store in the dtype and layout)");
    // A forward problem never lists it, nor does a backward_data one.
    for (const Pass pass : {Pass::forward, Pass::backward_data}) {
      const ConvProblem f = with_pass(testing::headline76(), pass);
      CHECK(gpu::conv::family_envelope(Family::wgrad_gemm_ffma, f, MathMode::fp32).reason ==
            "wgrad_gemm_ffma: does not compute the " + std::string(to_string(pass)) + " pass");
      for (const KernelChoice& c : gpu::conv::applicable_variants(f, MathMode::fp32))
        CHECK(c.family != Family::wgrad_gemm_ffma);
    }
  }

  TEST_CASE("backward_weights of depthwise problems: wgrad_depthwise the default, the GEMM stays for the rest") {
    ConvProblem p = with_pass(testing::headline84(), Pass::backward_weights);
    const KernelChoice dw{.family = Family::wgrad_depthwise}, gemm{.family = Family::wgrad_gemm_ffma};
    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      CHECK(gpu::conv::default_family(p, math) == Family::wgrad_depthwise);
      CHECK(gpu::conv::applicable_variants(p, math) == std::vector{dw, gemm});  // cuda:all: both, the default first
      CHECK(gpu::conv::family_math(Family::wgrad_depthwise) == MathMode::fp32);
      // Not depthwise: problem 76 (groups 1), a multiplier of 2; the GEMM alone.
      CHECK(gpu::conv::default_family(with_pass(testing::headline76(), Pass::backward_weights), math) ==
            Family::wgrad_gemm_ffma);
    }
    ConvProblem multiplier = p;
    multiplier.out_channels = 2 * p.in_channels;
    CHECK(gpu::conv::default_family(multiplier, MathMode::fp32) == Family::wgrad_gemm_ffma);
    CHECK(gpu::conv::family_envelope(Family::wgrad_depthwise, multiplier, MathMode::fp32).reason ==
          "wgrad_depthwise: needs groups == in_channels == out_channels (depthwise, multiplier 1)");
    // Too many taps for the accumulators, or a window past the shared memory: refused, the GEMM runs it.
    ConvProblem wide_kernel = p;
    wide_kernel.kernel = Dims{{9, 9, 1}};
    CHECK(gpu::conv::family_envelope(Family::wgrad_depthwise, wide_kernel, MathMode::fp32).reason ==
          "wgrad_depthwise: 81 taps per channel, over the 49 (7x7) a thread accumulates");
    CHECK(gpu::conv::default_family(wide_kernel, MathMode::fp32) == Family::wgrad_gemm_ffma);
    ConvProblem strided = p;
    strided.stride = Dims{{64, 64, 1}};
    strided.dilation = Dims{{2, 2, 1}};
    const Support s = gpu::conv::family_envelope(Family::wgrad_depthwise, strided, MathMode::fp32);
    CHECK(s.reason.find("wgrad_depthwise: one line's gathered window takes") == 0);
    CHECK(gpu::conv::default_family(strided, MathMode::fp32) == Family::wgrad_gemm_ffma);
    // A depthwise conv_transpose, 1-D and 3-D, is taken too.
    ConvProblem t = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 3, .batch = 2, .in_channels = 8,
                                .out_channels = 8, .groups = 8, .input = Dims{{4, 6, 6}}, .kernel = Dims{{3, 3, 3}},
                                .stride = Dims{{2, 1, 2}}, .dilation = Dims{{1, 2, 1}}, .pad_before = Dims{{1, 0, 1}},
                                .pad_after = Dims{{0, 1, 1}}, .bias = true};
    t.pass = Pass::backward_weights;
    CHECK(gpu::conv::default_family(t, MathMode::fp32) == Family::wgrad_depthwise);
    // Other dtypes and layouts: the shared reasons; forward and backward_data never list it.
    ConvProblem nhwc = p;
    nhwc.layout = Layout::nhwc;
    CHECK_FALSE(gpu::conv::family_envelope(Family::wgrad_depthwise, nhwc, MathMode::fp32).ok);
    for (const Pass pass : {Pass::forward, Pass::backward_data}) {
      const ConvProblem f = with_pass(testing::headline84(), pass);
      CHECK(gpu::conv::family_envelope(Family::wgrad_depthwise, f, MathMode::fp32).reason ==
            "wgrad_depthwise: does not compute the " + std::string(to_string(pass)) + " pass");
      for (const KernelChoice& c : gpu::conv::applicable_variants(f, MathMode::fp32)) CHECK(c.family != Family::wgrad_depthwise);
    }
    // Its description on 132 SMs: 5 slices of problem 84's 8,192 steps per channel, summed in order.
    const gpu::conv::KernelDescription d = gpu::conv::describe_kernel(dw, p, gpu::conv::LaunchDevice{132, 0});
    CHECK(d.implementation == "wgrad_depthwise/16x64/sliced");
    CHECK(property(d, "pass") == "backward_weights");
    CHECK(property(d, "reduction") == "128 channels x 9 taps, each over batch x 129540 positions (8290560)");
    CHECK(property(d, "slices") ==
          "5 slices of 1639 steps (partials in a 23040-byte workspace, summed in slice order: deterministic)");
    CHECK(property(d, "blocks") == "640");
    CHECK(property(d, "launches") == "2 (slices, sum of slices)");
    CHECK(property(gpu::conv::describe_kernel(dw, p, gpu::conv::LaunchDevice{}), "slices") ==
          "chosen from the device's SMs (unknown here)");
    p.bias = true;
    CHECK(property(gpu::conv::describe_kernel(dw, p, gpu::conv::LaunchDevice{132, 0}), "launches") ==
          "3 (slices, sum of slices, grad_bias)");
  }

  TEST_CASE("backward_data without a forward form is refused with the reason") {
    // A conv_transpose whose output padding reaches its stride (allowed by its dilation) has none.
    ConvProblem p = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 1, .batch = 1, .in_channels = 4,
                                .out_channels = 4, .input = Dims{{9, 1, 1}}, .kernel = Dims{{3, 1, 1}},
                                .dilation = Dims{{2, 1, 1}}, .output_padding = Dims{{1, 0, 0}}};
    REQUIRE(gpu::conv::problem_supported(p).ok);  // forward: fine
    p.pass = Pass::backward_data;
    REQUIRE_FALSE(backward_data_support(p).ok);
    const Support s = gpu::conv::problem_supported(p);
    CHECK_FALSE(s.ok);
    CHECK(s.reason.find("runs backward_data as a forward convolution") != std::string::npos);
    CHECK(gpu::conv::applicable_variants(p, MathMode::fp32).empty());
  }
}

}  // namespace kbench
