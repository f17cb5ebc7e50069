// The generic direct kernel and the depthwise kernels, from their own sources, run on the CPU under
// the CUDA emulation (cuda_emu.hpp) against the fp64 reference: the direct kernel on random problems
// of every kind (it is every problem's fallback), the register depthwise kernel across its instances
// (kernel 3/5/7, left padding 0 or centred), strip and segment edges and the three store widths, and
// the shared-memory direct kernel on random 1-D to 3-D shapes with few channels per group (depthwise,
// multipliers, small groups; strides, dilations, paddings, rectangular kernels) across its four
// forward instances and its transposed one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <random>
#include <vector>

#include "cuda/depthwise/depthwise2d_kernel.cuh"
#include "cuda/direct/direct_tiled_kernel.cuh"
#include "cuda/direct/direct_kernel.cuh"
#include "cuda/selection.hpp"
#include "emulated_run.hpp"
#include "problem_factory.hpp"
#include "problem/problem_validation.hpp"
#include "test_seed.hpp"

// The tiled kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
namespace kbench::gpu::conv::direct_tiled {
alignas(16) unsigned char smem[kMaxSmemBytes];
}

namespace kbench {
namespace {

namespace dw = gpu::conv::depthwise;
namespace dt = gpu::conv::direct_tiled;
using emu_tests::run_and_compare;
using gpu_tests::pick;

void check_direct(const ConvProblem& p, std::uint64_t seed) {
  const gpu::conv::DirectParams d = gpu::conv::make_direct_params(p);
  // Fewer blocks than outputs: the grid-stride loop runs more than one round.
  const auto blocks = static_cast<unsigned>(std::max<std::int64_t>(1, d.total / (3 * gpu::conv::kDirectThreads)));
  run_and_compare(
      p, seed, blocks, gpu::conv::kDirectThreads,
      [&](const data::HostTensors& t, float* y) {
        gpu::conv::direct_conv_kernel<DType::fp32, Layout::nchw>(d, t.input.data(), t.weight.data(),
                                                                 t.bias.empty() ? nullptr : t.bias.data(), y);
      },
      false);
}

void check_depthwise(const ConvProblem& p, std::uint64_t seed, dw::StoreMode stores = dw::StoreMode::split) {
  REQUIRE(gpu::conv::depthwise2d_envelope(p).ok);
  dw::Params tiling = dw::make_params(dw::plane_params(p));
  tiling.stores = stores;
  INFO("stores " << dw::store_mode_name(stores));
  run_and_compare(
      p, seed, static_cast<unsigned>(tiling.blocks()), dw::kThreads,
      [&](const data::HostTensors& t, float* y) {
        const float* bias = t.bias.empty() ? nullptr : t.bias.data();
        dw::with_depthwise_instance(tiling, [&](auto k, auto pad, auto mode) {
          dw::depthwise2d_kernel<decltype(k)::value, decltype(pad)::value, decltype(mode)::value>(
              tiling, t.input.data(), t.weight.data(), bias, y);
        });
      },
      true);
}

// The shared-memory direct kernel with the launch its tiling computes; returns its instance (0, 3, 5,
// 7, kTransposedInstance or kTransposedPairs).
int check_direct_tiled(const ConvProblem& p, std::uint64_t seed) {
  REQUIRE(gpu::conv::direct_tiled_envelope(p).ok);
  const dt::DirectTiledParams d = dt::make_params(p).desc;
  REQUIRE(d.smem_bytes() <= static_cast<std::int64_t>(sizeof dt::smem));
  run_and_compare(
      p, seed, static_cast<unsigned>(d.blocks()), dt::kThreads,
      [&](const data::HostTensors& t, float* y) {
        const float* bias = t.bias.empty() ? nullptr : t.bias.data();
        dt::with_tiled_instance(d, [&](auto k) {
          dt::direct_tiled_kernel<decltype(k)::value, DType::fp32>(d, t.input.data(), t.weight.data(), bias, y);
        });
      },
      true, dt::smem, static_cast<std::size_t>(d.smem_bytes()));
  return dt::instance_kernel(d);
}

// Upper bounds of random_tiled_problem's draws (lower bounds 1, or 0 for padding).
struct TiledShapes {
  std::int64_t kernel = 7, stride = 3, pad = 3;
  std::int64_t line = 9000;                 // 1-D input length
  std::int64_t depth = 4;                   // 3-D input depth
  std::int64_t width_lo = 20, width = 140;  // 2-D and 3-D rows: from, to
  std::int64_t height = 40;                 // the dimension before the rows
};

// A random problem of kind `op` that direct_tiled takes, with few output channels per group (up to
// 3) and up to `most_in` input channels per group (1: depthwise); dilations up to 2; depth kernels
// up to 3; `square` > 0 makes the 2-D kernel square of that size; transposed, an output_padding
// below the stride.
ConvProblem random_tiled_problem(std::mt19937_64& rng, OpKind op, int rank, std::int64_t most_in, std::int64_t square,
                                 const TiledShapes& shapes) {
  for (;;) {
    ConvProblem p;
    p.op = op;
    p.spatial_rank = rank;
    p.batch = pick(rng, 1, 2);
    p.groups = pick(rng, 1, 2);
    p.in_channels = p.groups * (most_in > 1 ? pick(rng, 1, most_in) : 1);
    p.out_channels = p.groups * pick(rng, 1, 3);
    p.bias = pick(rng, 0, 1) == 1;
    for (int d = 0; d < rank; ++d) {
      const bool depth = rank == 3 && d == 0, last = d + 1 == rank;
      p.kernel[d] = square > 0 && !depth ? square : pick(rng, 1, depth ? 3 : shapes.kernel);
      p.stride[d] = pick(rng, 1, shapes.stride);
      p.dilation[d] = pick(rng, 1, 2);
      p.pad_before[d] = pick(rng, 0, shapes.pad);
      p.pad_after[d] = pick(rng, 0, shapes.pad);
      if (op == OpKind::conv_transpose) p.output_padding[d] = pick(rng, 0, p.stride[d] - 1);
      p.input[d] = rank == 1 ? pick(rng, 1, shapes.line)
                             : (depth ? pick(rng, 1, shapes.depth)
                                      : pick(rng, last ? shapes.width_lo : 1, last ? shapes.width : shapes.height));
    }
    if (validate_problem(p).ok && gpu::conv::direct_tiled_envelope(p).ok) return p;
  }
}

// The unrolled direct_tiled instances (their K) and the generic one (0).
constexpr int kUnrolled[] = {0, 3, 5, 7};

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated direct kernel: random problems of every kind and rank") {
    std::mt19937_64 rng(kbench::testing::test_seed(11));
    for (int trial = 0; trial < 12; ++trial) {
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      const ConvProblem p = gpu_tests::random_problem(rng, op, 1 + trial % 3, pick(rng, 1, 3), pick(rng, 1, 3),
                                                      gpu_tests::small_shapes());
      CAPTURE(trial);
      check_direct(p, 900 + static_cast<std::uint64_t>(trial));
    }
  }

  TEST_CASE("emulated depthwise kernel: every instance, strip and segment edges, store widths") {
    std::mt19937_64 rng(kbench::testing::test_seed(84));
    int trial = 0;
    for (const std::int64_t k : {3, 5, 7})
      for (const std::int64_t centred : {0, 1}) {
        ConvProblem p;
        p.spatial_rank = 2;
        p.batch = 1;
        p.in_channels = p.out_channels = p.groups = pick(rng, 1, 2);
        p.kernel = Dims{{k, k, 1}};
        p.pad_before = Dims{{pick(rng, 0, k - 1), centred * (k - 1) / 2, 0}};
        p.pad_after = Dims{{pick(rng, 0, k - 1), pick(rng, 0, k - 1), 0}};
        // Widths: past one 512-column segment (516), and rows whose output width is odd, even, or a multiple of 4.
        const std::int64_t widths[] = {516, 8, 12};
        p.input = Dims{{pick(rng, k, 40), widths[trial % 3], 1}};  // up to two 32-row strips
        p.bias = trial % 2 == 0;
        CAPTURE(trial);
        check_depthwise(p, 950 + static_cast<std::uint64_t>(++trial));
        check_depthwise(p, 950 + static_cast<std::uint64_t>(trial), dw::StoreMode::realigned);
      }
    // Problem 84 in miniature: rows of 510 outputs from 512 inputs (8-byte stores), two strips.
    ConvProblem s84;
    s84.spatial_rank = 2;
    s84.batch = 1;
    s84.in_channels = s84.out_channels = s84.groups = 2;
    s84.kernel = Dims{{3, 3, 1}};
    s84.input = Dims{{40, 512, 1}};
    check_depthwise(s84, 84);
    check_depthwise(s84, 84, dw::StoreMode::realigned);
    // Rows of 2 mod 4 floats spanning two 512-column segments (the warp- and block-edge lanes' 8-byte
    // stores of realigned rows), three planes (row alignment alternating across planes too).
    ConvProblem wide = s84;
    wide.in_channels = wide.out_channels = wide.groups = 3;
    wide.input = Dims{{9, 580, 1}};
    REQUIRE(wide.output_extent(1) % 4 == 2);
    check_depthwise(wide, 85);
    check_depthwise(wide, 85, dw::StoreMode::realigned);
  }

  TEST_CASE("emulated shared-memory direct kernel: random 1-D to 3-D shapes, few channels per group, every instance") {
    std::mt19937_64 rng(kbench::testing::test_seed(2102));
    int instances[9] = {};  // K = 0 .. 7, and the transposed ones (negative) at 8
    const auto every_instance_ran = [&] {
      return std::all_of(std::begin(kUnrolled), std::end(kUnrolled), [&](int k) { return instances[k] > 0; });
    };
    // At least 30 trials, and on until every instance has run (whatever the seed draws).
    for (int trial = 0; trial < 30 || !every_instance_ran(); ++trial) {
      REQUIRE_MESSAGE(trial < 120, "some instance never ran: K=0 " << instances[0] << ", K=3 " << instances[3]
                                                                   << ", K=5 " << instances[5] << ", K=7 "
                                                                   << instances[7]);
      const int rank = 1 + trial % 3;
      // Three 2-D and 3-D trials in four take a square 3, 5 or 7 in turn (the unrolled instances),
      // the rest any shape up to 7. Rows past a 64-column tile now and then, and past one tile of rows
      // at a few rows a thread; 1-D past a 4,096-column tile now and then.
      const std::int64_t square = rank >= 2 && trial % 4 != 0 ? 3 + 2 * ((trial / 4) % 3) : 0;
      // Depthwise two trials in three, else up to 3 input channels per group.
      const ConvProblem p =
          random_tiled_problem(rng, OpKind::conv, rank, trial % 3 == 2 ? 3 : 1, square, TiledShapes{});
      CAPTURE(trial);
      CAPTURE(rank);
      const int k = check_direct_tiled(p, 2200 + static_cast<std::uint64_t>(trial));
      ++instances[k < 0 ? 8 : k];
    }
    CHECK(instances[8] == 0);  // forward problems never take the transposed instance
    // MobileNet's stride-2 3x3 depthwise with a centred pad, in miniature (two tiles of rows, a
    // partial tile of columns), multiplier 2 and a bias; ResNeXt's groups of 4 channels.
    ConvProblem mobile;
    mobile.spatial_rank = 2;
    mobile.in_channels = mobile.groups = 2;
    mobile.out_channels = 4;
    mobile.bias = true;
    mobile.input = Dims{{70, 90, 1}};
    mobile.kernel = Dims{{3, 3, 1}};
    mobile.stride = Dims{{2, 2, 1}};
    mobile.pad_before = mobile.pad_after = Dims{{1, 1, 0}};
    CHECK(check_direct_tiled(mobile, 2300) == 3);
    ConvProblem resnext = mobile;
    resnext.in_channels = resnext.out_channels = 8;
    resnext.stride = Dims{{1, 1, 1}};
    resnext.input = Dims{{20, 40, 1}};
    CHECK(check_direct_tiled(resnext, 2301) == 3);
  }

  TEST_CASE("emulated shared-memory direct kernel: transposed, random 1-D to 3-D shapes, few channels per group") {
    std::mt19937_64 rng(kbench::testing::test_seed(2105));
    int several_per_thread = 0, looped = 0, pairs = 0;
    // At least 24 trials, and on until each kind of tiling has run (whatever the seed draws).
    for (int trial = 0; trial < 24 || several_per_thread == 0 || looped == 0 || pairs == 0; ++trial) {
      REQUIRE_MESSAGE(trial < 96, "a tiling never ran: several a thread " << several_per_thread << ", looped " << looped
                                                                          << ", pairs " << pairs);
      const int rank = 1 + trial % 3;
      // Strides 1, 2 and 4 keep a thread's outputs in one phase; 3 makes it one output a thread.
      // Outputs are about stride times the input: smaller inputs keep them near a tile or two.
      const TiledShapes shapes{5, 4, 2, 2500, 3, 8, 50, 20};
      const ConvProblem p = random_tiled_problem(rng, OpKind::conv_transpose, rank, trial % 3 == 2 ? 3 : 1, 0, shapes);
      CAPTURE(trial);
      CAPTURE(rank);
      const int k = check_direct_tiled(p, 2400 + static_cast<std::uint64_t>(trial));
      CHECK((k == dt::kTransposedInstance || k == dt::kTransposedPairs));
      (k == dt::kTransposedPairs ? pairs : looped) += 1;
      several_per_thread += dt::make_params(p).desc.per_thread > 1 ? 1 : 0;
    }
    // FCN's learned x2 upsampler in miniature (depthwise, kernel 4, stride 2, padding 1, a bias):
    // every output gathers 2 x 2 taps, two tiles of rows.
    using D = Dims;
    const ConvProblem upsample = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 1,
                                             .in_channels = 3, .out_channels = 3, .groups = 3, .input = D{{40, 45, 1}},
                                             .kernel = D{{4, 4, 1}}, .stride = D{{2, 2, 1}}, .pad_before = D{{1, 1, 0}},
                                             .pad_after = D{{1, 1, 0}}, .bias = true};
    CHECK(check_direct_tiled(upsample, 2500) == dt::kTransposedPairs);
    ConvProblem grouped = upsample;  // a stack of 2 windows, 2 output channels per group: weights from shared memory
    grouped.in_channels = 4;
    grouped.out_channels = 4;
    grouped.groups = 2;
    CHECK(check_direct_tiled(grouped, 2502) == dt::kTransposedPairs);
    // Problem 77's geometry (stride 2, dilation 2: even coordinates untapped) on two channels per group.
    const ConvProblem sparse = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 3, .batch = 1,
                                           .in_channels = 2, .out_channels = 4, .groups = 2, .input = D{{3, 6, 20}},
                                           .kernel = D{{3, 3, 3}}, .stride = D{{2, 2, 2}}, .dilation = D{{2, 2, 2}},
                                           .pad_before = D{{1, 1, 1}}, .pad_after = D{{1, 1, 1}}};
    CHECK(check_direct_tiled(sparse, 2501) == dt::kTransposedInstance);
  }

  TEST_CASE("emulated shared-memory direct kernel in passes: many input channels per group, few output channels") {
    // Up to 96 input channels a group on small planes: most stacks exceed 48 KB, so the block adds
    // them in passes, holding partial sums in shared memory; forward and transposed in turn.
    std::mt19937_64 rng(kbench::testing::test_seed(2109));
    int in_passes = 0;
    const TiledShapes shapes{5, 3, 2, 1500, 3, 8, 48, 24};
    // At least 12 trials, and on until 6 of them took passes (whatever the seed draws).
    for (int trial = 0; trial < 12 || in_passes < 6; ++trial) {
      REQUIRE_MESSAGE(trial < 60, "the random problems rarely need passes: " << in_passes << " of " << trial);
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      const int rank = 1 + trial % 3;
      const ConvProblem p = random_tiled_problem(rng, op, rank, 96, 0, shapes);
      CAPTURE(trial);
      CAPTURE(rank);
      CAPTURE(p.in_channels);
      check_direct_tiled(p, 2700 + static_cast<std::uint64_t>(trial));
      in_passes += dt::make_params(p).desc.passes() > 1 ? 1 : 0;
    }
    // pix2pix's last layer in miniature (transposed 128 -> 3, kernel 4, stride 2, padding 1, a bias)
    // and a regression head (64 -> 1, 3x3): several passes, tiles past the edges.
    using D = Dims;
    const ConvProblem pix2pix = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 1,
                                            .in_channels = 128, .out_channels = 3, .input = D{{12, 20, 1}},
                                            .kernel = D{{4, 4, 1}}, .stride = D{{2, 2, 1}}, .pad_before = D{{1, 1, 0}},
                                            .pad_after = D{{1, 1, 0}}, .bias = true};
    REQUIRE(dt::make_params(pix2pix).desc.passes() > 1);
    CHECK(check_direct_tiled(pix2pix, 2800) == dt::kTransposedPairs);
    const ConvProblem head = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 64,
                                         .out_channels = 1, .input = D{{40, 70, 1}}, .kernel = D{{3, 3, 1}},
                                         .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}};
    REQUIRE(dt::make_params(head).desc.passes() > 1);
    CHECK(check_direct_tiled(head, 2801) == 3);
  }

}  // TEST_SUITE

}  // namespace kbench
