// The shared-memory direct kernel (direct_tiled) on fp16 and bf16 NCHW tensors from its own source
// under the CUDA emulation: every instance (the unrolled 3x3, 5x5 and 7x7 with register weights, the
// looped one, the transposed ones, pairs and general), a stack in several passes, groups of a few
// channels and a stride-1 transposed problem run as it is (the forward rewrite is fp32 only), against
// the fp64 reference within emulated_typed_run.hpp's bound.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>

#include "cuda/direct/direct_tiled_family.hpp"
#include "cuda/direct/direct_tiled_kernel.cuh"
#include "cuda/registry.hpp"
#include "emulated_typed_run.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

// The tiled kernel's `extern __shared__` array, defined by test_emulated_direct_depthwise.cpp.
namespace kbench::gpu::conv::direct_tiled {
extern unsigned char smem[kMaxSmemBytes];
}

namespace kbench {
namespace {

namespace dt = gpu::conv::direct_tiled;
using emu_tests::Stored;
using gpu_tests::pick;

// Runs p in kType (NCHW) with the launch its tiling computes; returns the tiling.
template <DType kType>
dt::DirectTiledParams check_tiled(ConvProblem p, std::uint64_t seed) {
  p.dtype = kType;
  p.layout = Layout::nchw;
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::direct_tiled, p, MathMode::fp32).ok);
  const dt::DirectTiledParams d = dt::make_params(p).desc;
  REQUIRE(d.dtype == kType);
  emu_tests::run_typed_and_compare<kType>(
      p, seed, emu::Dim3{static_cast<unsigned>(d.blocks())}, dt::kThreads,
      [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        dt::with_tiled_instance(d, [&](auto k) { dt::direct_tiled_kernel<decltype(k)::value, kType>(d, x, w, b, y); });
      },
      dt::smem, static_cast<std::size_t>(d.smem_bytes()));
  return d;
}

// fp16 and bf16; returns the instance run.
int check_both(const ConvProblem& p, std::uint64_t seed) {
  check_tiled<DType::fp16>(p, seed);
  return dt::instance_kernel(check_tiled<DType::bf16>(p, seed + 1));
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated direct_tiled in fp16 and bf16: every instance, passes, groups, stride-1 transposed") {
    using D = Dims;
    const OpKind conv = OpKind::conv, tconv = OpKind::conv_transpose;
    // (rank, n, cin, cout, groups, input, kernel, stride, dilation, pad before, pad after, bias)
    const ConvProblem depthwise[] = {
        // problem 84 in miniature: 2-D depthwise 3x3 (register weights), then 5x5 and 7x7
        ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 3, .out_channels = 3, .groups = 3,
                    .input = D{{11, 70, 0}}, .kernel = D{{3, 3, 0}}, .stride = D{{1, 1, 0}}, .dilation = D{{1, 1, 0}},
                    .bias = true},
        ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 2, .out_channels = 2, .groups = 2,
                    .input = D{{9, 40, 0}}, .kernel = D{{5, 5, 0}}, .stride = D{{1, 1, 0}}, .dilation = D{{1, 1, 0}},
                    .pad_before = D{{2, 2, 0}}, .pad_after = D{{2, 2, 0}}},
        ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 2, .out_channels = 2, .groups = 2,
                    .input = D{{12, 33, 0}}, .kernel = D{{7, 7, 0}}, .stride = D{{2, 1, 0}}, .dilation = D{{1, 1, 0}},
                    .pad_before = D{{3, 3, 0}}, .pad_after = D{{1, 3, 0}}, .bias = true},
        // a 1x5 kernel with column dilation (the looped instance), depth multiplier 2
        ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 2, .out_channels = 4, .groups = 2,
                    .input = D{{6, 50, 0}}, .kernel = D{{1, 5, 0}}, .stride = D{{1, 2, 0}}, .dilation = D{{1, 2, 0}},
                    .pad_before = D{{0, 3, 0}}, .pad_after = D{{0, 1, 0}}, .bias = true},
        // a x2 upsampler's 4x4 transposed (pairs) and a transposed 3x3 at stride 3 (general)
        ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 1, .in_channels = 3, .out_channels = 3, .groups = 3,
                    .input = D{{7, 20, 0}}, .kernel = D{{4, 4, 0}}, .stride = D{{2, 2, 0}}, .dilation = D{{1, 1, 0}},
                    .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}, .bias = true},
        ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 2, .out_channels = 2, .groups = 2,
                    .input = D{{5, 9, 0}}, .kernel = D{{3, 3, 0}}, .stride = D{{3, 3, 0}}, .dilation = D{{1, 2, 0}},
                    .pad_before = D{{0, 1, 0}}, .pad_after = D{{2, 0, 0}}, .output_padding = D{{1, 2, 0}}},
        // stride-1 transposed, depthwise 3x3: runs as transposed in 16-bit types, not as its forward
        ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 1, .in_channels = 4, .out_channels = 4, .groups = 4,
                    .input = D{{8, 30, 0}}, .kernel = D{{3, 3, 0}}, .stride = D{{1, 1, 0}}, .dilation = D{{1, 1, 0}},
                    .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}, .bias = true},
        // 1-D and 3-D, groups of 3 input channels -> 2 outputs
        ConvProblem{.op = conv, .spatial_rank = 1, .batch = 2, .in_channels = 6, .out_channels = 4, .groups = 2,
                    .input = D{{300, 0, 0}}, .kernel = D{{4, 0, 0}}, .stride = D{{2, 0, 0}}, .dilation = D{{2, 0, 0}},
                    .pad_before = D{{1, 0, 0}}, .pad_after = D{{2, 0, 0}}, .bias = true},
        ConvProblem{.op = conv, .spatial_rank = 3, .batch = 1, .in_channels = 6, .out_channels = 4, .groups = 2,
                    .input = D{{4, 6, 40}}, .kernel = D{{2, 3, 3}}, .pad_before = D{{1, 1, 1}},
                    .pad_after = D{{0, 1, 1}}},
    };
    std::set<int> instances;
    for (std::size_t i = 0; i < std::size(depthwise); ++i) {
      CAPTURE(i);
      instances.insert(check_both(depthwise[i], 2490 + 10 * i));
    }
    CHECK(instances == std::set<int>{0, 3, 5, 7, dt::kTransposedInstance, dt::kTransposedPairs});

    // 40 input channels a group for 2 outputs: a stack too deep for one pass.
    const ConvProblem deep = ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 40,
                                         .out_channels = 2, .input = D{{20, 140, 0}}, .kernel = D{{3, 3, 0}},
                                         .stride = D{{1, 1, 0}}, .dilation = D{{1, 1, 0}}, .pad_before = D{{1, 1, 0}},
                                         .pad_after = D{{1, 1, 0}}, .bias = true};
    CHECK(check_tiled<DType::fp16>(deep, 2590).passes() > 1);
    check_tiled<DType::bf16>(deep, 2591);
  }

  TEST_CASE("emulated direct_tiled in fp16 and bf16: random depthwise and few-channel problems") {
    std::mt19937_64 rng(kbench::testing::test_seed(2495));
    gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
    for (int trial = 0; trial < 8; ++trial) {
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      ConvProblem p;
      do {
        p = gpu_tests::random_problem(rng, op, 1 + trial % 3, pick(rng, 1, 3), pick(rng, 1, 3), limits);
      } while (!gpu::conv::direct_tiled_envelope(p).ok);
      CAPTURE(trial);
      check_both(p, 2600 + 10 * static_cast<std::uint64_t>(trial));
    }
  }
}

}  // namespace kbench
