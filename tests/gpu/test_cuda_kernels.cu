// The cuda backend's kernel families against kbench's fp64 reference, through the Backend interface:
// each family forced by variant name on random small shapes inside and at the edges of its envelope,
// in the math modes it runs under, plus the four headline workloads at full size on sampled outputs.
// Every output is poisoned first, so an element a kernel forgets to write fails; inputs must be unchanged.
// The 3xTF32 families are held to the fp32 tolerance: that is the claim that makes them fp32 kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "dry_run.hpp"
#include "problem_factory.hpp"
#include "cuda/cuda_backend.hpp"
#include "problem/conv_pass.hpp"
#include "problem/problem_validation.hpp"
#include "reference/reference_conv.hpp"
#include "cuda/device_support.hpp"
#include "verify/check_points.hpp"
#include "verify/compare.hpp"
#include "verify/error_bound.hpp"
#include "verify/tolerance.hpp"
#include "headline_problems.hpp"
#include "test_seed.hpp"
#include "variant_envelope.hpp"

namespace {

using kbench::BackendOptions;
using kbench::ConvProblem;
using kbench::Dims;
using kbench::MathMode;
using kbench::OpKind;
using kbench::gpu_tests::pick;
using kbench::gpu_tests::random_problem;

// Whether the bulk-copy depthwise kernel (compute capability 9.0 or later) can run here; else the
// tests of it say why and skip it. A dry run checks their draws anyway.
bool bulk_device() {
  if (kbench::gpu_tests::dry_run()) return true;  // its draws are checked all the same
  const kbench::Support s = kbench::gpu::bulk_copy_device_support(0);
  if (!s) MESSAGE("depthwise2d bulk copies skipped: " << s.reason);
  return s.ok;
}

// Whether implementation `impl` ("family/order/tile[/resident_a][/split_k]") is what `variant` asked
// for: each part of the variant ("family[/order][/schedule][/split_k]") is a part of it; streamed_a is
// the absence of resident_a, no_split_k the absence of split_k.
bool implements(const std::string& impl, const std::string& variant) {
  const auto parts = [](const std::string& s) {
    std::vector<std::string> out;
    for (std::size_t at = 0, slash; at <= s.size(); at = slash + 1) {
      slash = s.find('/', at);
      if (slash == std::string::npos) slash = s.size();
      out.push_back(s.substr(at, slash - at));
    }
    return out;
  };
  const std::vector<std::string> have = parts(impl);
  const auto has = [&](const std::string& p) { return std::find(have.begin(), have.end(), p) != have.end(); };
  for (const std::string& p : parts(variant))
    if (p == "streamed_a" ? has("resident_a") : p == "no_split_k" ? has("split_k") : !has(p)) return false;
  return true;
}

kbench::Backend& cuda_backend() {
  static const std::unique_ptr<kbench::Backend> backend = kbench::gpu::make_cuda_backend();
  return *backend;
}

BackendOptions options_for(const std::string& variant, MathMode math) {
  BackendOptions options;
  options.math = math;
  options.variant = variant;
  return options;
}

// Runs `problem` on family `variant` and compares the outputs at `indices` (all when empty) with the reference.
void check_family(const ConvProblem& problem, const std::string& variant, MathMode math, std::uint64_t seed,
                  std::vector<std::int64_t> indices = {}) {
  INFO("variant " << variant << ", math " << kbench::to_string(math));
  if (kbench::gpu_tests::dry_run()) {  // whether the draw lies in the variant's envelope: all a dry run checks
    const kbench::Support inside = kbench::gpu_tests::variant_envelope(problem, variant, math);
    REQUIRE_MESSAGE(inside.ok, inside.reason);
    return;
  }
  kbench::Backend* const backend = &cuda_backend();
  REQUIRE(backend->available());
  const BackendOptions options = options_for(variant, math);
  const kbench::Support supported = backend->supports(problem, options);
  REQUIRE_MESSAGE(supported.ok, supported.reason);
  if (const kbench::Support fits = backend->fits(problem, options); !fits) {
    MESSAGE("skipped, does not fit this device: " << fits.reason);
    return;
  }
  const std::unique_ptr<kbench::PreparedRun> run = backend->prepare(problem, options);
  INFO("implementation " << run->implementation());
  CHECK(implements(run->implementation(), variant));
  run->fill_inputs(seed);
  run->poison_output();
  run->run();
  if (indices.empty()) {
    indices.resize(static_cast<std::size_t>(problem.output_elements()));
    std::iota(indices.begin(), indices.end(), 0);
  }
  const std::vector<float> got = run->read_output(indices);
  const std::vector<double> expected = kbench::reference::convolve_at_seeded(problem, seed, indices);
  const kbench::Comparison c = kbench::compare_outputs(got, expected, kbench::default_tolerance(run->math_used()));
  INFO("checked " << c.checked << ", mismatches " << c.mismatches << ", max abs error " << c.max_abs_error
                  << ", first mismatch at output "
                  << (c.first_mismatch >= 0 ? indices[static_cast<std::size_t>(c.first_mismatch)] : -1) << ": got "
                  << c.first_mismatch_got << ", expected " << c.first_mismatch_expected);
  CHECK(c.passed());
  CHECK(run->inputs_unchanged());
}

// Runs `problem` (any dtype and layout) on `variant` under math fp32 and compares the outputs at
// `indices` (all when empty) with the reference within the error bound a run's verification uses
// (verify/error_bound.hpp: fp32 accumulation, one rounding to the output's dtype).
void check_bounded(const ConvProblem& problem, const std::string& variant, std::uint64_t seed,
                   std::vector<std::int64_t> indices = {}) {
  INFO("variant " << variant << ", " << kbench::to_string(problem.dtype) << " " << kbench::to_string(problem.layout));
  if (kbench::gpu_tests::dry_run()) {
    const kbench::Support inside = kbench::gpu_tests::variant_envelope(problem, variant, MathMode::fp32);
    REQUIRE_MESSAGE(inside.ok, inside.reason);
    return;
  }
  kbench::Backend* const backend = &cuda_backend();
  REQUIRE(backend->available());
  const BackendOptions options = options_for(variant, MathMode::fp32);
  const kbench::Support supported = backend->supports(problem, options);
  REQUIRE_MESSAGE(supported.ok, supported.reason);
  const std::unique_ptr<kbench::PreparedRun> run = backend->prepare(problem, options);
  INFO("implementation " << run->implementation());
  CHECK(implements(run->implementation(), variant));
  run->fill_inputs(seed);
  run->poison_output();
  run->run();
  if (indices.empty()) {
    indices.resize(static_cast<std::size_t>(kbench::computed_elements(problem)));
    std::iota(indices.begin(), indices.end(), 0);
  }
  const std::vector<float> got = run->read_output(indices);
  using kbench::reference::Terms;
  const std::vector<double> values = kbench::reference::convolve_at_seeded(problem, seed, indices);
  const std::vector<double> sums = kbench::reference::convolve_at_seeded(problem, seed, indices, Terms::magnitude);
  std::vector<double> roots = kbench::reference::convolve_at_seeded(problem, seed, indices, Terms::square);
  for (double& r : roots) r = std::sqrt(r);
  const kbench::Comparison c = kbench::compare_outputs(got, kbench::ExpectedValues{values, sums, roots},
                                                       kbench::error_bound_for(problem, run->math_used()));
  INFO("checked " << c.checked << ", mismatches " << c.mismatches << ", first mismatch at output "
                  << (c.first_mismatch >= 0 ? indices[static_cast<std::size_t>(c.first_mismatch)] : -1) << ": got "
                  << c.first_mismatch_got << ", expected " << c.first_mismatch_expected << " within "
                  << c.first_mismatch_allowed);
  CHECK(c.passed());
  CHECK(run->inputs_unchanged());
}

// The family names for the GEMM maths, with the math mode each runs under.
struct GemmVariant {
  const char* suffix;
  MathMode math;
};
constexpr GemmVariant kGemmVariants[] = {
    {"ffma", MathMode::fp32}, {"3xtf32", MathMode::fp32}, {"tf32", MathMode::tf32}};

std::vector<std::int64_t> sampled(const ConvProblem& p) { return kbench::choose_check_points(p, 4096, 1234); }

// A random 1-D or 2-D forward problem in the input_patch order's envelope: rows a multiple of 4
// floats; random stride, dilation, padding (beyond the 4-float alignment too), groups and bias;
// up to `max_cout` output channels per group.
ConvProblem random_patch_problem(std::mt19937_64& rng, int rank, std::int64_t max_cout) {
  for (;;) {
    ConvProblem p = random_problem(rng, OpKind::conv, rank, pick(rng, 1, 6), pick(rng, 1, max_cout));
    p.input[rank - 1] = 4 * pick(rng, 1, rank == 1 ? 75 : 12);
    p.pad_before[rank - 1] = pick(rng, 0, 6);
    if (kbench::validate_problem(p).ok) return p;
  }
}

}  // namespace

TEST_SUITE("cuda_kernels") {
  TEST_CASE("direct: random problems of every kind, both math modes") {
    std::mt19937_64 rng(kbench::testing::test_seed(1));
    for (int trial = 0; trial < 48; ++trial) {
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      const ConvProblem p = random_problem(rng, op, 1 + trial % 3, pick(rng, 1, 5), pick(rng, 1, 5));
      CAPTURE(trial);
      check_family(p, "direct", trial % 4 < 2 ? MathMode::fp32 : MathMode::tf32,
                   100 + static_cast<std::uint64_t>(trial));
    }
  }

  TEST_CASE("direct: a spatial dimension past 2^30 (64-bit coordinates), forward and transposed, sampled") {
    using D = Dims;
    // 1-D, 2^30 + 1000 long (4.3 GB a channel): the fast paths refuse it, `direct` is the default.
    const std::int64_t long_line = (std::int64_t{1} << 30) + 1000;
    const ConvProblem forward = ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 1, .in_channels = 1,
                                            .out_channels = 2, .input = D{{long_line, 1, 1}}, .kernel = D{{3, 1, 1}},
                                            .dilation = D{{2, 1, 1}}, .pad_before = D{{1, 0, 0}},
                                            .pad_after = D{{1, 0, 0}}, .bias = true};
    // Transposed at stride 2 from half that: an output past 2^30.
    const ConvProblem transposed =
        ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 1, .batch = 1, .in_channels = 1, .out_channels = 1,
                    .input = D{{long_line / 2, 1, 1}}, .kernel = D{{4, 1, 1}}, .stride = D{{2, 1, 1}},
                    .pad_before = D{{1, 0, 0}}, .pad_after = D{{1, 0, 0}}};
    REQUIRE(transposed.output_extent(0) > (std::int64_t{1} << 30));
    for (const ConvProblem& p : {forward, transposed}) {
      CHECK(cuda_backend().supports(p, options_for("", MathMode::fp32)));
      check_family(p, "direct", MathMode::fp32, 3000, sampled(p));
    }
  }

  TEST_CASE("depthwise2d: kernel sizes, paddings, segment and strip edges, store widths") {
    using D = Dims;
    const OpKind conv = OpKind::conv;
    std::mt19937_64 rng(kbench::testing::test_seed(84));
    int trial = 0;
    for (const std::int64_t k : {3, 5, 7})
      for (const std::int64_t centred : {0, 1})
        for (const std::int64_t width : {4, 36, 512, 1028}) {
          const std::int64_t pad_left = centred * (k - 1) / 2;
          const std::int64_t pad_right = pick(rng, 0, k - 1);
          const std::int64_t pad_top = pick(rng, 0, k - 1), pad_bottom = pick(rng, 0, k - 1);
          const std::int64_t height = pick(rng, k, 75);  // up to three strips
          const std::int64_t channels = pick(rng, 1, 4);
          const ConvProblem p = ConvProblem{.op = conv, .spatial_rank = 2, .batch = pick(rng, 1, 2),
                                            .in_channels = channels, .out_channels = channels, .groups = channels,
                                            .input = D{{height, width, 1}}, .kernel = D{{k, k, 1}},
                                            .pad_before = D{{pad_top, pad_left, 0}},
                                            .pad_after = D{{pad_bottom, pad_right, 0}}, .bias = pick(rng, 0, 1) == 1};
          if (p.output_extent(0) < 1 || p.output_extent(1) < 1) continue;
          CAPTURE(k);
          CAPTURE(pad_left);
          CAPTURE(width);
          check_family(p, "depthwise2d", MathMode::fp32, 200 + static_cast<std::uint64_t>(++trial));
          // Rows of 2 mod 4 floats: the realigned 16-byte stores too.
          if (p.output_extent(1) % 4 == 2)
            check_family(p, "depthwise2d/realigned_stores", MathMode::fp32, 200 + static_cast<std::uint64_t>(trial));
          // Output planes of a multiple of 4 floats: the bulk copies too, both schedules.
          if (bulk_device() && kbench::gpu_tests::variant_envelope(p, "depthwise2d/bulk_copies", MathMode::fp32))
            for (const char* variant : {"depthwise2d/bulk_copies", "depthwise2d/bulk_pipelined"})
              check_family(p, variant, MathMode::fp32, 200 + static_cast<std::uint64_t>(trial));
        }
    // Problem 84 in miniature: rows of 510 outputs from 512 inputs (8-byte stores, or realigned 16-byte
    // ones); and rows of 1026 spanning three 512-column segments.
    const ConvProblem s84 = ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 3, .out_channels = 3,
                                        .groups = 3, .input = D{{70, 512, 1}}, .kernel = D{{3, 3, 1}}};
    const ConvProblem wide = ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 5, .out_channels = 5,
                                         .groups = 5, .input = D{{40, 1028, 1}}, .kernel = D{{3, 3, 1}}, .bias = true};
    for (const ConvProblem& p : {s84, wide}) {
      for (const char* variant : {"depthwise2d", "depthwise2d/realigned_stores"})
        check_family(p, variant, MathMode::fp32, 284);
      if (bulk_device())
        for (const char* variant : {"depthwise2d/bulk_copies", "depthwise2d/bulk_pipelined"})
          check_family(p, variant, MathMode::fp32, 284);
    }
  }

  TEST_CASE("depthwise_nhwc: fp16, bf16 and fp32 channels last, random 1-D to 3-D shapes and problem 84 at full size") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(2462));
    const kbench::DType dtypes[] = {kbench::DType::fp16, kbench::DType::bf16, kbench::DType::fp32};
    for (int trial = 0; trial < 30; ++trial) {
      // C a multiple of 8 (every dtype's vector), up to 11 vectors of fp16: partial slices.
      ConvProblem p = random_problem(rng, OpKind::conv, 1 + trial % 3, 1, 1);
      p.in_channels = p.out_channels = p.groups = 8 * pick(rng, 1, 11);
      p.dtype = dtypes[trial % 3];
      p.layout = kbench::Layout::nhwc;
      CAPTURE(trial);
      check_bounded(p, "depthwise_nhwc", 2462 + static_cast<std::uint64_t>(trial));
    }
    // Problem 84 in fp16 and bf16 (its own half seeds), 510-column rows across 16 column tiles.
    ConvProblem s84 = kbench::testing::headline84();
    s84.layout = kbench::Layout::nhwc;
    for (const kbench::DType dtype : dtypes) {
      s84.dtype = dtype;
      check_bounded(s84, "depthwise_nhwc", 84, sampled(s84));
    }
  }

  TEST_CASE("half GEMMs: random forward and transposed problems, fp16 and bf16, NHWC and NCHW") {
    std::mt19937_64 rng(kbench::testing::test_seed(2470));
    const kbench::DType dtypes[] = {kbench::DType::fp16, kbench::DType::bf16};
    for (int trial = 0; trial < 24; ++trial) {
      // C_in/g of 8 or 16 (16-byte copies under NHWC) or 3 (gathers); 8 to 72 output channels per group.
      const std::int64_t cin_pg = trial % 4 == 3 ? 3 : 8 * pick(rng, 1, 2);
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      ConvProblem p = random_problem(rng, op, 1 + trial % 3, cin_pg, pick(rng, 8, 72));
      p.dtype = dtypes[trial / 2 % 2];
      p.layout = trial / 4 % 2 == 0 ? kbench::Layout::nhwc : kbench::Layout::nchw;
      CAPTURE(trial);
      check_bounded(p, op == OpKind::conv ? "implicit_gemm_half" : "transposed_phase_half",
                    2470 + static_cast<std::uint64_t>(trial));
    }
  }

  TEST_CASE("half GEMMs: problem 77 at full size by phases, fp16 and bf16 NHWC") {
    using D = Dims;
    // One tapped phase of 27 taps; 7 of 8 outputs written by the fill.
    ConvProblem s77 = kbench::testing::headline77();
    s77.layout = kbench::Layout::nhwc;
    for (const kbench::DType dtype : {kbench::DType::fp16, kbench::DType::bf16}) {
      s77.dtype = dtype;
      check_bounded(s77, "transposed_phase_half", 77, sampled(s77));
    }
  }

  TEST_CASE("direct_tiled in fp16 and bf16 NCHW: random depthwise and few-channel shapes, forward and transposed") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(2496));
    for (int trial = 0; trial < 24; ++trial) {
      const OpKind op = trial % 3 == 2 ? OpKind::conv_transpose : OpKind::conv;
      ConvProblem p;
      do {
        kbench::gpu_tests::ShapeLimits limits;
        limits.input[1] = 150;  // 2-D: past 64-column and 64-row tiles
        limits.input[2] = 40;
        limits.kernel[0] = limits.kernel[1] = 7;
        limits.stride = 3;
        p = random_problem(rng, op, 1 + trial % 3, trial % 4 == 3 ? pick(rng, 1, 4) : 1, pick(rng, 1, 3), limits);
        if (p.spatial_rank == 2 && trial % 4 == 1) p.kernel = D{{3 + 2 * (trial / 4 % 3), 3 + 2 * (trial / 4 % 3), 1}};
        p.dtype = trial % 2 == 0 ? kbench::DType::fp16 : kbench::DType::bf16;
      } while (!kbench::validate_problem(p).ok ||
               !kbench::gpu_tests::variant_envelope(p, "direct_tiled", MathMode::fp32).ok);
      CAPTURE(trial);
      check_bounded(p, "direct_tiled", 2496 + static_cast<std::uint64_t>(trial));
    }
    // Problem 84 in fp16 NCHW (sampled): depthwise 3x3 on 256 x 512 planes.
    ConvProblem s84 = kbench::testing::headline84();
    s84.dtype = kbench::DType::fp16;
    check_bounded(s84, "direct_tiled", 84, sampled(s84));
  }

  TEST_CASE("backward passes in fp16, bf16 and NHWC: random grad_weight and grad_input problems, default kernels") {
    std::mt19937_64 rng(kbench::testing::test_seed(2497));
    const kbench::DType dtypes[] = {kbench::DType::fp16, kbench::DType::bf16, kbench::DType::fp32};
    for (int trial = 0; trial < 24; ++trial) {
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      ConvProblem p = random_problem(rng, op, 1 + trial % 3, pick(rng, 1, 24), pick(rng, 1, 24));
      p.pass = trial % 4 < 2 ? kbench::Pass::backward_weights : kbench::Pass::backward_data;
      p.dtype = dtypes[trial % 3];
      p.layout = trial / 3 % 2 == 0 ? kbench::Layout::nhwc : kbench::Layout::nchw;
      if (p.dtype == kbench::DType::fp32) p.layout = kbench::Layout::nhwc;  // fp32 NCHW has its own cases
      const std::string variant = kbench::gpu_tests::default_variant(p, MathMode::fp32);
      if (variant.empty()) continue;  // a backward_data problem with no forward form
      CAPTURE(trial);
      CAPTURE(variant);
      check_bounded(p, variant, 2497 + static_cast<std::uint64_t>(trial));
    }
  }

  TEST_CASE("direct_tiled: random 1-D to 3-D shapes, few channels per group, each instance, both math modes") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(2103));
    for (int trial = 0; trial < 45; ++trial) {
      const int rank = 1 + trial % 3;
      ConvProblem p;
      do {
        kbench::gpu_tests::ShapeLimits limits;
        limits.input[0] = 9000;  // 1-D: past a 4,096-column tile
        limits.input[1] = 150;   // 2-D: past 64-column and 64-row tiles
        limits.input[2] = 40;
        limits.kernel[0] = limits.kernel[1] = 7;
        limits.stride = 4;
        // Depthwise two trials in three (multipliers up to 4), else up to 4 channels per group.
        p = random_problem(rng, OpKind::conv, rank, trial % 3 == 2 ? pick(rng, 1, 4) : 1, pick(rng, 1, 4), limits);
        // Every fourth 2-D trial a square 3, 5 or 7 kernel (the unrolled instances).
        if (rank == 2 && trial % 4 == 1) p.kernel = D{{3 + 2 * (trial / 4 % 3), 3 + 2 * (trial / 4 % 3), 1}};
      } while (!kbench::validate_problem(p).ok);
      CAPTURE(trial);
      check_family(p, "direct_tiled", trial % 4 < 2 ? MathMode::fp32 : MathMode::tf32,
                   2100 + static_cast<std::uint64_t>(trial));
    }
    // MobileNet-sized layers: stride 2 on 112x112 (two tiles of 32 rows, 33.5 KB windows), stride 1 on
    // 7x7 with 960 channels and a bias; a 5x5 with multiplier 2; ResNeXt's groups of 4 on 56x56; a
    // 3x3x3 depthwise on video frames.
    const ConvProblem mobile_s2 = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 4, .in_channels = 32,
                                              .out_channels = 32, .groups = 32, .input = D{{112, 112, 1}},
                                              .kernel = D{{3, 3, 1}}, .stride = D{{2, 2, 1}},
                                              .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}};
    const ConvProblem mobile_7 = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 8, .in_channels = 960,
                                             .out_channels = 960, .groups = 960, .input = D{{7, 7, 1}},
                                             .kernel = D{{3, 3, 1}}, .pad_before = D{{1, 1, 0}},
                                             .pad_after = D{{1, 1, 0}}, .bias = true};
    const ConvProblem multiplied = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 24,
                                               .out_channels = 48, .groups = 24, .input = D{{56, 60, 1}},
                                               .kernel = D{{5, 5, 1}}, .pad_before = D{{2, 2, 0}},
                                               .pad_after = D{{2, 2, 0}}, .bias = true};
    const ConvProblem resnext = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 128,
                                            .out_channels = 128, .groups = 32, .input = D{{56, 56, 1}},
                                            .kernel = D{{3, 3, 1}}, .pad_before = D{{1, 1, 0}},
                                            .pad_after = D{{1, 1, 0}}};
    const ConvProblem video = ConvProblem{.op = OpKind::conv, .spatial_rank = 3, .batch = 2, .in_channels = 24,
                                          .out_channels = 24, .groups = 24, .input = D{{8, 28, 28}},
                                          .kernel = D{{3, 3, 3}}, .pad_before = D{{1, 1, 1}}, .pad_after = D{{1, 1, 1}},
                                          .bias = true};
    for (const ConvProblem& p : {mobile_s2, mobile_7, multiplied, resnext, video})
      check_family(p, "direct_tiled", MathMode::fp32, 2199);
  }

  TEST_CASE("direct_tiled: transposed, random 1-D to 3-D shapes, few channels per group, both math modes") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(2106));
    for (int trial = 0; trial < 30; ++trial) {
      const int rank = 1 + trial % 3;
      ConvProblem p;
      do {
        kbench::gpu_tests::ShapeLimits limits;
        limits.input[0] = 4000;  // 1-D: outputs past a 4,096-column tile
        limits.input[1] = 80;    // 2-D: past 64-column and 64-row tiles at stride 2
        limits.input[2] = 20;
        limits.kernel[0] = limits.kernel[1] = 5;
        limits.stride = 4;
        p = random_problem(rng, OpKind::conv_transpose, rank, trial % 3 == 2 ? pick(rng, 1, 4) : 1, pick(rng, 1, 4),
                           limits);
      } while (!kbench::validate_problem(p).ok ||
               !cuda_backend().supports(p, options_for("direct_tiled", MathMode::fp32)));
      CAPTURE(trial);
      check_family(p, "direct_tiled", trial % 4 < 2 ? MathMode::fp32 : MathMode::tf32,
                   2600 + static_cast<std::uint64_t>(trial));
    }
    // FCN's x2 depthwise upsampler on 21 score maps of 256 x 256 (kernel 4, stride 2, padding 1);
    // a x4 one (kernel 8, stride 4, padding 2) with a bias; problem 77's sparse geometry (stride 2,
    // dilation 2) on groups of 2 channels in 3-D.
    const ConvProblem up2 = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 4, .in_channels = 21,
                                        .out_channels = 21, .groups = 21, .input = D{{256, 256, 1}},
                                        .kernel = D{{4, 4, 1}}, .stride = D{{2, 2, 1}}, .pad_before = D{{1, 1, 0}},
                                        .pad_after = D{{1, 1, 0}}};
    const ConvProblem up4 = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 2, .in_channels = 16,
                                        .out_channels = 16, .groups = 16, .input = D{{60, 70, 1}},
                                        .kernel = D{{8, 8, 1}}, .stride = D{{4, 4, 1}}, .pad_before = D{{2, 2, 0}},
                                        .pad_after = D{{2, 2, 0}}, .bias = true};
    const ConvProblem sparse = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 3, .batch = 2,
                                           .in_channels = 8, .out_channels = 8, .groups = 4, .input = D{{6, 16, 16}},
                                           .kernel = D{{3, 3, 3}}, .stride = D{{2, 2, 2}}, .dilation = D{{2, 2, 2}},
                                           .pad_before = D{{1, 1, 1}}, .pad_after = D{{1, 1, 1}}};
    for (const ConvProblem& p : {up2, up4, sparse}) check_family(p, "direct_tiled", MathMode::fp32, 2699);
  }

  TEST_CASE("direct_tiled in passes: many input channels, few output channels, forward and transposed") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(2110));
    for (int trial = 0; trial < 24; ++trial) {
      const int rank = 1 + trial % 3;
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      ConvProblem p;
      do {
        kbench::gpu_tests::ShapeLimits limits;
        limits.input[0] = 3000;
        limits.input[1] = 90;
        limits.input[2] = 16;
        limits.kernel[0] = limits.kernel[1] = 5;
        limits.stride = 3;
        p = random_problem(rng, op, rank, pick(rng, 24, 160), pick(rng, 1, 4), limits);
      } while (!kbench::validate_problem(p).ok ||
               !cuda_backend().supports(p, options_for("direct_tiled", MathMode::fp32)));
      CAPTURE(trial);
      check_family(p, "direct_tiled", trial % 4 < 2 ? MathMode::fp32 : MathMode::tf32,
                   2900 + static_cast<std::uint64_t>(trial));
    }
    // A regression head (64 -> 1, 3x3, bias) on 256 x 256, pix2pix's last layer (transposed 128 -> 3,
    // kernel 4, stride 2) on 128 x 128, a 3-D head (32 -> 2, 3x3x3).
    const ConvProblem head = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 8, .in_channels = 64,
                                         .out_channels = 1, .input = D{{256, 256, 1}}, .kernel = D{{3, 3, 1}},
                                         .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}, .bias = true};
    const ConvProblem pix2pix = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 4,
                                            .in_channels = 128, .out_channels = 3, .input = D{{128, 128, 1}},
                                            .kernel = D{{4, 4, 1}}, .stride = D{{2, 2, 1}}, .pad_before = D{{1, 1, 0}},
                                            .pad_after = D{{1, 1, 0}}};
    const ConvProblem head3d = ConvProblem{.op = OpKind::conv, .spatial_rank = 3, .batch = 2, .in_channels = 32,
                                           .out_channels = 2, .input = D{{16, 48, 48}}, .kernel = D{{3, 3, 3}},
                                           .pad_before = D{{1, 1, 1}}, .pad_after = D{{1, 1, 1}}, .bias = true};
    for (const ConvProblem& p : {head, pix2pix, head3d})
      check_family(p, "direct_tiled", MathMode::fp32, 2999, sampled(p));
  }

  TEST_CASE("implicit GEMM: every tile, both reduction orders, all three maths") {
    std::mt19937_64 rng(kbench::testing::test_seed(50));
    // (input channels per group, output channels per group): k_table (few channels) and channel blocks
    // (16, 20: a partial last block), tiles 64 / 96 / 128 (and 130: two row tiles).
    const std::int64_t shapes[][2] = {{3, 8}, {3, 96}, {16, 64}, {20, 80}, {4, 130}, {32, 128}, {1, 33}};
    int trial = 0;
    for (const auto& shape : shapes)
      for (const GemmVariant& v : kGemmVariants) {
        const ConvProblem p = random_problem(rng, OpKind::conv, 1 + trial % 3, shape[0], shape[1]);
        CAPTURE(trial);
        check_family(p, std::string("implicit_gemm_") + v.suffix, v.math, 300 + static_cast<std::uint64_t>(++trial));
      }
    // Problem 50 in miniature (k table, 96 rows, bias) and problem 76 in miniature (channel blocks, 128 rows).
    using D = Dims;
    const ConvProblem s50 = kbench::testing::resized(kbench::testing::headline50(), 2, Dims{{63, 59, 1}});
    const ConvProblem s76 = kbench::testing::resized(kbench::testing::headline76(), 2, Dims{{3000, 1, 1}});
    for (const GemmVariant& v : kGemmVariants) {
      check_family(s50, std::string("implicit_gemm_") + v.suffix, v.math, 350);
      check_family(s76, std::string("implicit_gemm_") + v.suffix, v.math, 376);
    }
  }

  TEST_CASE("implicit GEMM with A resident: persistent blocks, tiles across images, odd outputs, row tiles") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(7676));
    // The two tensor-core maths (FFMA has no resident instance). Problem 76 in miniature over 5 images
    // (196 column tiles: some of the 132 persistent blocks walk two, tiles straddle images); an odd
    // output volume (single stores, pairs split across images) with bias; 2-D with 200 output
    // channels (two row tiles, padded rows).
    const ConvProblem s76 = kbench::testing::resized(kbench::testing::headline76(), 5, Dims{{30000, 1, 1}});
    const ConvProblem odd = ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 3, .in_channels = 48,
                                        .out_channels = 100, .input = D{{9001, 1, 1}}, .kernel = D{{3, 1, 1}},
                                        .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 0, 0}}, .bias = true};
    const ConvProblem tall = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 16,
                                         .out_channels = 200, .input = D{{40, 60, 1}}, .kernel = D{{3, 3, 1}},
                                         .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}, .bias = true};
    REQUIRE(odd.output_spatial_volume() % 2 == 1);
    for (const GemmVariant& v : kGemmVariants) {
      if (std::string(v.suffix) == "ffma") continue;
      const std::string family = std::string("implicit_gemm_") + v.suffix;
      for (const ConvProblem& p : {s76, odd, tall}) check_family(p, family + "/resident_a", v.math, 760, sampled(p));
      check_family(s76, family + "/streamed_a", v.math, 761, sampled(s76));
      // Random problems with more than 96 output channels (the 128-row tile) whose A fits resident.
      const std::string forced = family + "/channel_blocks/resident_a";
      for (int i = 0; i < 3; ++i) {
        ConvProblem p;
        do {
          p = random_problem(rng, OpKind::conv, 1 + i, pick(rng, 1, 40), pick(rng, 97, 256));
        } while (!cuda_backend().supports(p, options_for(forced, v.math)));
        CAPTURE(i);
        check_family(p, forced, v.math, 770 + static_cast<std::uint64_t>(i));
      }
    }
  }

  TEST_CASE("implicit GEMM with each reduction order forced; input_patch at the edges of its envelope") {
    using D = Dims;
    std::mt19937_64 rng(kbench::testing::test_seed(5050));
    int trial = 0;
    // input_patch: 1-D and 2-D, rows a multiple of 4 floats; random stride, dilation, padding (beyond
    // the 4-float alignment too), groups and bias; reductions that end in a partial chunk.
    for (const GemmVariant& v : kGemmVariants)
      for (int i = 0; i < 8; ++i) {
        const ConvProblem p = random_patch_problem(rng, 1 + i % 2, 100);
        CAPTURE(trial);
        check_family(p, std::string("implicit_gemm_") + v.suffix + "/input_patch", v.math,
                     500 + static_cast<std::uint64_t>(++trial));
      }
    // Problem 50 in miniature with 16-byte rows, several images (tiles never straddle two) and a last tile
    // of each image that is partial: every order, every math.
    const ConvProblem s50 = kbench::testing::resized(kbench::testing::headline50(), 3, Dims{{63, 60, 1}});
    for (const GemmVariant& v : kGemmVariants)
      for (const char* order : {"channel_blocks", "k_table", "input_patch"})
        check_family(s50, std::string("implicit_gemm_") + v.suffix + "/" + order, v.math, 550);
  }

  TEST_CASE("implicit GEMM with long kernels: tap lists and tables past 1,024 taps and 2,048 rows") {
    using D = Dims;
    const D one{{1, 1, 1}}, none{{0, 0, 0}};
    // 64 channels x 2,048 taps (a 32 KB tap list), 2 channels x 1,536 taps (a 72 KB k table, and
    // channel blocks), 3 channels x 31 x 31 taps (2,883 rows: input_patch), all three maths.
    const ConvProblem wide =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 2, .in_channels = 64, .out_channels = 64,
                    .input = D{{3000, 1, 1}}, .kernel = D{{2048, 1, 1}}, .stride = one, .dilation = one,
                    .pad_before = none, .pad_after = none, .bias = true};
    const ConvProblem few =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 2, .in_channels = 2, .out_channels = 64,
                    .input = D{{3000, 1, 1}}, .kernel = D{{1536, 1, 1}}, .stride = one, .dilation = one,
                    .pad_before = none, .pad_after = none};
    const ConvProblem image = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 3,
                                          .out_channels = 64, .input = D{{96, 96, 1}}, .kernel = D{{31, 31, 1}},
                                          .stride = one, .dilation = one, .pad_before = D{{15, 15, 0}},
                                          .pad_after = D{{15, 15, 0}}, .bias = true};
    for (const GemmVariant& v : kGemmVariants) {
      const std::string family = std::string("implicit_gemm_") + v.suffix;
      check_family(wide, family + "/channel_blocks", v.math, 2048, sampled(wide));
      check_family(few, family + "/k_table", v.math, 2049, sampled(few));
      check_family(few, family + "/channel_blocks", v.math, 2050, sampled(few));
      check_family(image, family + "/input_patch", v.math, 2051, sampled(image));
      // Transposed at stride 1: one phase GEMM of all 1,030 taps.
      const ConvProblem up = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 1, .batch = 2, .in_channels = 16,
                                         .out_channels = 32, .input = D{{500, 1, 1}}, .kernel = D{{1030, 1, 1}},
                                         .stride = one, .dilation = one, .pad_before = none, .pad_after = none};
      check_family(up, std::string("transposed_phase_") + v.suffix, v.math, 2052, sampled(up));
    }
  }

  TEST_CASE("implicit GEMM split over the reduction (split-K): small grids, long reductions, forward and transposed") {
    using D = Dims;
    const D one{{1, 1, 1}}, pad1{{1, 1, 0}};
    // Grids that leave most SMs idle, so every device of 8 SMs or more splits them (`/split_k` asks
    // the implementation to say it did), each against its no_split_k twin: ResNet's last 3x3 at batch
    // 1 with bias (4 blocks, 288 chunks: 32 splits on an H200); two groups of 150 -> 100 channels
    // (grid z = groups x splits); a 1-D layer whose 27 chunks split unevenly; a x2 transposed
    // upsampler at batch 1 (its four phase GEMMs split).
    const ConvProblem late =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 512, .out_channels = 512,
                    .input = D{{7, 7, 1}}, .kernel = D{{3, 3, 1}}, .stride = one, .dilation = one, .pad_before = pad1,
                    .pad_after = pad1, .bias = true};
    const ConvProblem grouped =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 300, .out_channels = 200,
                    .groups = 2, .input = D{{7, 7, 1}}, .kernel = D{{3, 3, 1}}, .stride = one, .dilation = one,
                    .pad_before = pad1, .pad_after = pad1};
    const ConvProblem line = ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 1, .in_channels = 48,
                                         .out_channels = 64, .input = D{{60, 1, 1}}, .kernel = D{{9, 1, 1}},
                                         .stride = one, .dilation = one, .pad_before = D{{4, 0, 0}},
                                         .pad_after = D{{4, 0, 0}}, .bias = true};
    const ConvProblem up = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 1, .in_channels = 512,
                                       .out_channels = 256, .input = D{{4, 4, 1}}, .kernel = D{{4, 4, 1}},
                                       .stride = D{{2, 2, 1}}, .dilation = one, .pad_before = pad1, .pad_after = pad1,
                                       .bias = true};
    std::uint64_t seed = 4000;
    for (const GemmVariant& v : kGemmVariants) {
      for (const std::string family :
           {std::string("implicit_gemm_") + v.suffix, std::string("transposed_phase_") + v.suffix})
        for (const ConvProblem& p : {late, grouped, line, up}) {
          if (p.transposed() != family.starts_with("transposed")) continue;
          check_family(p, family + "/split_k", v.math, ++seed);
          check_family(p, family + "/no_split_k", v.math, seed);
        }
    }
    // Random shapes at batch 1 with many channels: split or not as the device decides, always right.
    std::mt19937_64 rng(kbench::testing::test_seed(4096));
    for (int i = 0; i < 6; ++i) {
      ConvProblem p = random_problem(rng, OpKind::conv, 1 + i % 3, pick(rng, 16, 200), pick(rng, 1, 200));
      p.batch = 1;
      const GemmVariant& v = kGemmVariants[i % 3];
      CAPTURE(i);
      check_family(p, std::string("implicit_gemm_") + v.suffix, v.math, 4100 + static_cast<std::uint64_t>(i));
    }
  }

  TEST_CASE("transposed by phases: tapped and untapped phases, output_padding, groups, all three maths") {
    using D = Dims;
    const OpKind tconv = OpKind::conv_transpose;
    std::mt19937_64 rng(kbench::testing::test_seed(77));
    int trial = 0;
    for (const GemmVariant& v : kGemmVariants) {
      for (int i = 0; i < 10; ++i) {
        const ConvProblem p = random_problem(rng, tconv, 1 + i % 3, pick(rng, 1, 20), pick(rng, 1, 70));
        CAPTURE(trial);
        check_family(p, std::string("transposed_phase_") + v.suffix, v.math, 400 + static_cast<std::uint64_t>(++trial));
      }
      const std::string family = std::string("transposed_phase_") + v.suffix;
      // Problem 77 in miniature: only odd coordinates tapped (88% untapped), the zero fill inside the GEMM
      // launch, with fill-only blocks after the tiles (the default) or in the GEMM blocks only.
      const ConvProblem s77 = kbench::testing::resized(kbench::testing::headline77(), 2, Dims{{4, 6, 5}});
      check_family(s77, family, v.math, 477);
      check_family(s77, family + "/no_fill_blocks", v.math, 477);
      // Stride 3, kernel 2: one phase of three untapped along each dimension, with bias.
      check_family(ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 8, .out_channels = 16,
                               .groups = 2, .input = D{{7, 9, 1}}, .kernel = D{{2, 2, 1}}, .stride = D{{3, 3, 1}},
                               .pad_before = D{{0, 1, 0}}, .pad_after = D{{1, 0, 0}}, .output_padding = D{{2, 1, 0}},
                               .bias = true},
                   family, v.math, 478);
      // Every output untapped (stride 4, dilation 4, one tap, padding 1): bias only, no GEMM at all.
      check_family(ConvProblem{.op = tconv, .spatial_rank = 1, .batch = 2, .in_channels = 4, .out_channels = 8,
                               .stride = D{{4, 1, 1}}, .dilation = D{{4, 1, 1}}, .pad_before = D{{1, 0, 0}},
                               .output_padding = D{{2, 0, 0}}, .bias = true},
                   family, v.math, 479);
    }
  }

  TEST_CASE("stride-1 transposed convolutions as forward: every variant, depthwise to dense, both math modes") {
    // Each runs on the forward kernels after the launch that writes its forward weights (names ending
    // /as_forward), and on the phase GEMMs and direct as it is: every variant `cuda:all` lists.
    using D = Dims;
    const OpKind tconv = OpKind::conv_transpose;
    std::mt19937_64 rng(kbench::testing::test_seed(7720));
    kbench::gpu_tests::ShapeLimits limits;
    limits.stride = 1;
    std::vector<ConvProblem> problems = {
        // Depthwise 3x3 "same" (the register depthwise kernel) and a full 5x5 one (direct_tiled's k5).
        ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 16, .out_channels = 16, .groups = 16,
                    .input = D{{30, 64, 1}}, .kernel = D{{3, 3, 1}}, .pad_before = D{{1, 1, 0}},
                    .pad_after = D{{1, 1, 0}}, .bias = true},
        ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 8, .out_channels = 8, .groups = 8,
                    .input = D{{20, 21, 1}}, .kernel = D{{5, 5, 1}}},
        // Few input channels and a large kernel, rows of a multiple of 4 floats: the input_patch GEMM.
        ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 3, .out_channels = 24,
                    .input = D{{24, 32, 1}}, .kernel = D{{7, 7, 1}}, .pad_before = D{{3, 3, 0}},
                    .pad_after = D{{3, 3, 0}}, .bias = true},
    };
    while (problems.size() < 12) {
      const int rank = 1 + static_cast<int>(problems.size() % 3);
      const ConvProblem p = random_problem(rng, tconv, rank, pick(rng, 1, 20), pick(rng, 1, 40), limits);
      if (kbench::gpu_tests::has_forward_equivalent(p)) problems.push_back(p);
    }
    int trial = 0;
    for (const ConvProblem& p : problems)
      for (const MathMode math : {MathMode::fp32, MathMode::tf32})
        for (const std::string& variant : kbench::gpu_tests::applicable_variant_names(p, math)) {
          // The variants this device's architecture cannot run (wgmma, bulk copies: 9.0) are left out.
          if (!kbench::gpu_tests::dry_run() && !cuda_backend().supports(p, options_for(variant, math))) continue;
          CAPTURE(trial);
          check_family(p, variant, math, 720 + static_cast<std::uint64_t>(++trial));
        }
  }

  TEST_CASE("--algo exhaustive: every variant timed on the prepared buffers, the fastest runs and verifies") {
    using D = Dims;
    const ConvProblem s76 = kbench::testing::resized(kbench::testing::headline76(), 4, Dims{{60000, 1, 1}});
    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      BackendOptions options = options_for("", math);
      options.algo_search = kbench::AlgoSearch::exhaustive;
      REQUIRE(cuda_backend().fits(s76, options).ok);
      const std::unique_ptr<kbench::PreparedRun> run = cuda_backend().prepare(s76, options);
      std::string search, algo;
      for (const auto& [key, value] : run->properties()) {
        if (key == "search_ms") search = value;
        if (key == "algo_search") algo = value;
      }
      INFO("search " << search);
      CHECK(algo == "exhaustive");
      CHECK(search.find(" (chosen)") != std::string::npos);
      CHECK(search.find("failed") == std::string::npos);
      CHECK(search.find("direct") == std::string::npos);
      run->fill_inputs(77);
      run->poison_output();
      run->run();
      const std::vector<std::int64_t> indices = sampled(s76);
      const kbench::Comparison c =
          kbench::compare_outputs(run->read_output(indices), kbench::reference::convolve_at_seeded(s76, 77, indices),
                                  kbench::default_tolerance(run->math_used()));
      CHECK(c.passed());
    }
  }

  // Whether the wgmma kernel (sm_90a) can run here; else the tests of it say why and skip. A dry run
  // checks their draws anyway.
  bool wgmma_device() {
    if (kbench::gpu_tests::dry_run()) return true;  // its draws are checked all the same
    const kbench::Support s = kbench::gpu::wgmma_device_support(0);
    if (!s) MESSAGE("wgmma skipped: " << s.reason);
    return s.ok;
  }

  constexpr GemmVariant kTensorVariants[] = {{"3xtf32", MathMode::fp32}, {"tf32", MathMode::tf32}};

  TEST_CASE("implicit GEMM on wgmma: input_patch at the edges of its envelope, both tensor-core maths") {
    if (!wgmma_device()) return;
    std::mt19937_64 rng(kbench::testing::test_seed(9090));
    int trial = 0;
    // Random 1-D and 2-D problems with 16-byte rows, groups, bias, up to 200 output channels per group
    // (three row tiles of 96), reductions ending in a partial chunk.
    for (const GemmVariant& v : kTensorVariants)
      for (int i = 0; i < 8; ++i) {
        const ConvProblem p = random_patch_problem(rng, 1 + i % 2, 200);
        CAPTURE(trial);
        check_family(p, std::string("implicit_gemm_") + v.suffix + "/input_patch/wgmma", v.math,
                     900 + static_cast<std::uint64_t>(++trial));
      }
  }

  TEST_CASE("implicit GEMM on wgmma: problem 50 at full size, both tensor-core maths") {
    using D = Dims;
    if (!wgmma_device()) return;
    const ConvProblem s50 = kbench::testing::headline50();
    for (const GemmVariant& v : kTensorVariants)
      check_family(s50, std::string("implicit_gemm_") + v.suffix + "/wgmma", v.math, 50, sampled(s50));
  }

  TEST_CASE("implicit_gemm_half and transposed_phase_half on wgmma: random shapes, both layouts, problems 76 and 77") {
    using D = Dims;
    if (!wgmma_device()) return;
    std::mt19937_64 rng(kbench::testing::test_seed(2476));
    const kbench::DType dtypes[] = {kbench::DType::fp16, kbench::DType::bf16};
    for (int trial = 0; trial < 16; ++trial) {
      // C_in/g of 8 to 24 (16-byte copies under NHWC) or 3 (gathers); 8 to 136 output channels per
      // group (up to three column tiles).
      const std::int64_t cin_pg = trial % 4 == 3 ? 3 : 8 * pick(rng, 1, 3);
      ConvProblem p = random_problem(rng, OpKind::conv, 1 + trial % 3, cin_pg, pick(rng, 8, 136));
      p.dtype = dtypes[trial / 2 % 2];
      p.layout = trial / 4 % 2 == 0 ? kbench::Layout::nhwc : kbench::Layout::nchw;
      CAPTURE(trial);
      check_bounded(p, "implicit_gemm_half/wgmma", 2476 + static_cast<std::uint64_t>(trial));
    }
    // Problem 76 in fp16 NHWC: 2^31 + input elements (64-bit offsets), K 192 (six full chunks).
    ConvProblem s76 = kbench::testing::headline76();
    s76.dtype = kbench::DType::fp16;
    s76.layout = kbench::Layout::nhwc;
    check_bounded(s76, "implicit_gemm_half/wgmma", 76, sampled(s76));
    // Transposed: each phase GEMM on the wgmma kernel, 8 random problems and problem 77 in bf16 NHWC.
    for (int trial = 0; trial < 8; ++trial) {
      const std::int64_t cin_pg = trial % 4 == 3 ? 3 : 8 * pick(rng, 1, 3);
      ConvProblem p = random_problem(rng, OpKind::conv_transpose, 1 + trial % 3, cin_pg, pick(rng, 8, 136));
      p.dtype = dtypes[trial % 2];
      p.layout = trial / 2 % 2 == 0 ? kbench::Layout::nhwc : kbench::Layout::nchw;
      CAPTURE(trial);
      check_bounded(p, "transposed_phase_half/wgmma", 2492 + static_cast<std::uint64_t>(trial));
    }
    ConvProblem s77 = kbench::testing::headline77();
    s77.dtype = kbench::DType::bf16;
    s77.layout = kbench::Layout::nhwc;
    check_bounded(s77, "transposed_phase_half/wgmma", 77, sampled(s77));
  }

  TEST_CASE("the four headline workloads at full size, every family that serves them, sampled outputs") {
    using D = Dims;
    const ConvProblem s76 = kbench::testing::headline76();
    const ConvProblem s50 = kbench::testing::headline50();
    const ConvProblem s84 = kbench::testing::headline84();
    const ConvProblem s77 = kbench::testing::headline77();
    check_family(s84, "depthwise2d", MathMode::fp32, 84, sampled(s84));
    check_family(s84, "depthwise2d/realigned_stores", MathMode::fp32, 84, sampled(s84));
    if (bulk_device())
      for (const char* variant : {"depthwise2d/bulk_copies", "depthwise2d/bulk_pipelined"})
        check_family(s84, variant, MathMode::fp32, 84, sampled(s84));
    check_family(s84, "direct_tiled", MathMode::fp32, 84, sampled(s84));
    for (const GemmVariant& v : kGemmVariants) {
      // 76's input has 2^31 + elements: 64-bit offsets on the real shape.
      check_family(s76, std::string("implicit_gemm_") + v.suffix, v.math, 76, sampled(s76));  // resident A (not ffma)
      if (std::string(v.suffix) != "ffma")
        check_family(s76, std::string("implicit_gemm_") + v.suffix + "/streamed_a", v.math, 76, sampled(s76));
      check_family(s50, std::string("implicit_gemm_") + v.suffix, v.math, 50, sampled(s50));  // input_patch
      check_family(s50, std::string("implicit_gemm_") + v.suffix + "/k_table", v.math, 50, sampled(s50));
      check_family(s77, std::string("transposed_phase_") + v.suffix, v.math, 77, sampled(s77));
      check_family(s77, std::string("transposed_phase_") + v.suffix + "/no_fill_blocks", v.math, 77, sampled(s77));
    }
  }

}  // TEST_SUITE
