// The implicit-GEMM kernel's own source (igemm_kernel.cuh), run on the CPU under the CUDA emulation
// (cuda_emu.hpp), against the fp64 reference: every order, tile and math, forward and transposed
// (with the zero fill of untapped outputs), small random shapes. What the index tests cannot see
// (the pipeline's waits and barriers, the loaders, the fragment and epilogue code, the masked last
// chunk of the patch order) runs here exactly as written for the GPU, with the launch grid and
// shared-memory size the host code computes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/implicit_gemm/igemm_kernel.cuh"
#include "cuda/implicit_gemm/igemm_resident_kernel.cuh"
#include "cuda/implicit_gemm/igemm_split_reduce.cuh"
#include "cuda/implicit_gemm/igemm_wgmma_kernel.cuh"
#include "cuda/selection.hpp"
#include "cuda/transposed/forward_equivalent.hpp"
#include "forward_weights.hpp"
#include "cuda/transposed/phase_gemm_index.hpp"
#include "cuda/transposed/zero_fill_index.hpp"
#include "data/host_tensors.hpp"
#include "problem_factory.hpp"
#include "problem/rank3.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/tolerance.hpp"
#include "headline_problems.hpp"
#include "test_seed.hpp"

// The kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
namespace kbench::gpu::conv::igemm {
alignas(16) unsigned char smem[kMaxSmemBytes];
}

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;
using gpu::conv::Family;
using gpu::conv::KernelChoice;
using gpu_tests::pick;

constexpr float kPoison = 1.0e30f;  // every output is overwritten or the comparison fails

// One GEMM of a launch, as GemmPart::pack + GemmPart::run do it on the device (under split-K, the GEMM
// into a workspace, then the reduction); adds the streaming stores made to each output element to
// `writes`.
void run_gemm(ig::GemmMath math, const ig::GemmConvParams& d, const std::vector<ig::GemmTap>& taps,
              const data::HostTensors& t, std::vector<float>& y, const gpu::conv::ZeroFillParams& zero,
              std::vector<int>& writes) {
  std::vector<float> a(static_cast<std::size_t>(ig::packed_a_size(d)));
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = ig::packed_a_value(d, taps.data(), t.weight.data(), static_cast<std::int64_t>(i), ig::a_layout_for(d, math),
                              math == ig::GemmMath::tf32);
  const std::vector<ig::KEntry> table =
      d.order == ig::KOrder::k_table ? ig::make_k_table(d, taps) : std::vector<ig::KEntry>{};
  const std::vector<std::int32_t> koffs =
      d.order == ig::KOrder::input_patch ? ig::make_patch_koffs(d, taps) : std::vector<std::int32_t>{};
  emu::clear_buffers();
  emu::allow_read(t.input.data(), t.input.size() * sizeof(float));
  emu::allow_read(a.data(), a.size() * sizeof(float));
  emu::allow_read(t.bias.data(), t.bias.size() * sizeof(float));
  emu::allow_write(y.data(), y.size() * sizeof(float));
  // Poisoned: a partial the GEMM leaves unwritten spoils its outputs' sums.
  std::vector<float> partials(static_cast<std::size_t>(ig::partial_floats(d)), kPoison);
  const float* bias = t.bias.empty() ? nullptr : t.bias.data();
  const ig::GemmGrid g = ig::gemm_grid(d);
  const std::size_t smem_bytes = ig::smem_layout(d).total_bytes;
  REQUIRE(smem_bytes <= ig::kMaxSmemBytes);
  const emu::Dim3 grid{static_cast<unsigned>(g.x), static_cast<unsigned>(g.y), static_cast<unsigned>(g.z)};
  if (d.mma == ig::MmaKind::wgmma) {  // its own kernel (igemm_wgmma.cu's instances)
    REQUIRE(math != ig::GemmMath::ffma);
    emu::launch(grid, emu::Dim3{static_cast<unsigned>(ig::TileWgmma::kThreads)}, ig::smem, smem_bytes, [&] {
      if (math == ig::GemmMath::tf32) {
        ig::igemm_wgmma_kernel<ig::GemmMath::tf32>(d, t.input.data(), a.data(), bias, y.data(), koffs.data());
      } else {
        ig::igemm_wgmma_kernel<ig::GemmMath::tf32x3>(d, t.input.data(), a.data(), bias, y.data(), koffs.data());
      }
    });
  } else {
    ig::with_tile(ig::choose_tile(d), d.order, [&](auto tile_tag, auto order_tag) {
      using T = decltype(tile_tag);
      constexpr ig::KOrder kOrder = decltype(order_tag)::value;
      const auto call = [&](auto math_tag) {
        constexpr ig::GemmMath kMath = decltype(math_tag)::value;
        if constexpr (T::kResidentA && kMath == ig::GemmMath::ffma) {
          FAIL("resident A has no FFMA instance");
        } else if constexpr (T::kResidentA) {
          ig::igemm_resident_kernel<T, kMath>(d, t.input.data(), a.data(), bias, y.data(), taps.data(), table.data(),
                                              koffs.data(), zero);
        } else {
          ig::igemm_conv_kernel<T, kMath, kOrder>(d, t.input.data(), a.data(), bias, y.data(), taps.data(),
                                                  table.data(), koffs.data(), zero, partials.data());
        }
      };
      const std::function<void()> body = [&] {
        switch (math) {
          case ig::GemmMath::ffma: return call(std::integral_constant<ig::GemmMath, ig::GemmMath::ffma>{});
          case ig::GemmMath::tf32: return call(std::integral_constant<ig::GemmMath, ig::GemmMath::tf32>{});
          case ig::GemmMath::tf32x3: return call(std::integral_constant<ig::GemmMath, ig::GemmMath::tf32x3>{});
        }
      };
      emu::launch(grid, emu::Dim3{static_cast<unsigned>(T::kThreads)}, ig::smem, smem_bytes, body);
    });
  }
  if (d.splits > 1) {  // a few blocks, so the reduction's grid-stride loop turns
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(
        (d.groups * d.rows * d.columns + ig::kSplitReduceThreads - 1) / ig::kSplitReduceThreads, 7));
    emu::launch(emu::Dim3{blocks}, emu::Dim3{static_cast<unsigned>(ig::kSplitReduceThreads)}, nullptr, 0,
                [&] { ig::igemm_split_reduce_kernel(d, partials.data(), bias, y.data()); });
  }
  const std::vector<std::uint8_t>& counts = emu::write_counts(y.data());
  for (std::size_t i = 0; i < y.size(); ++i) writes[i] += counts[i * sizeof(float)];
}

// Runs `choice` on `problem` as the cuda backend's launch would (forward: one GEMM; transposed: one per
// tapped phase, the first also writing the untapped planes and rows) and checks every output.
// Resident A runs `resident_blocks` persistent blocks per row tile (the launch: one per SM); every GEMM
// that can split its reduction runs in `splits` (the launch: choose_splits for the device's SMs).
void check(const ConvProblem& problem, const KernelChoice& choice, MathMode math, std::uint64_t seed,
           std::int64_t resident_blocks = 3, std::int64_t splits = 1) {
  const std::string name = gpu::conv::variant_name(choice);
  INFO("variant " << name << ", math " << to_string(math));
  REQUIRE_MESSAGE(gpu::conv::choice_envelope(choice, problem, math).ok, "outside the envelope");
  const ConvProblem p3 = as_rank3(problem);
  const data::HostTensors t = data::make_host_tensors(problem, seed);
  std::vector<float> y(static_cast<std::size_t>(problem.output_elements()), kPoison);
  std::vector<int> writes(y.size(), 0);  // every output is stored exactly once, over all launches
  const ig::GemmMath gemm_math = gpu::conv::gemm_math(choice.family);
  if (gpu::conv::is_implicit_gemm(choice.family)) {
    // A stride-1 transposed problem runs as its forward equivalent, on the forward weights
    // (forward_equivalent.hpp), as the launch runs it; the output is held to its own reference.
    const std::optional<ConvProblem> forward = gpu::conv::forward_problem_for(choice.family, problem);
    const ConvProblem f3 = as_rank3(forward.value_or(problem));
    data::HostTensors tf = t;
    if (forward) tf.weight = gpu_tests::forward_weights(*forward, t.weight);
    ig::GemmConvParams d = gpu::conv::forward_gemm_params(f3, choice);
    d.resident_blocks = resident_blocks;
    if (ig::split_support(d).ok) d.splits = splits;
    run_gemm(gemm_math, d, ig::forward_taps(f3), tf, y, gpu::conv::ZeroFillParams{}, writes);
  } else {
    std::vector<gpu::conv::PhaseGemm> gemms =
        gpu::conv::transposed_gemms(p3, choice.fill.value_or(gpu::conv::FillBlocks::trailing));
    REQUIRE_FALSE(gemms.empty());  // the bias-only case has no GEMM to emulate
    for (std::size_t i = 0; i < gemms.size(); ++i) {
      if (ig::split_support(gemms[i].desc).ok) gemms[i].desc.splits = splits;
      run_gemm(gemm_math, gemms[i].desc, gemms[i].taps, t, y,
               i == 0 ? gpu::conv::make_zero_fill_params(p3) : gpu::conv::ZeroFillParams{}, writes);
    }
  }
  const std::vector<double> expected = reference::convolve(problem, t);
  const Comparison c = compare_outputs(y, expected, default_tolerance(gpu::conv::family_math(choice.family)));
  INFO("mismatches " << c.mismatches << " of " << c.checked << ", max abs error " << c.max_abs_error << ", first at "
                     << c.first_mismatch << ": got " << c.first_mismatch_got << ", expected "
                     << c.first_mismatch_expected);
  CHECK(c.passed());
  const auto not_once = std::count_if(writes.begin(), writes.end(), [](int w) { return w != 1; });
  CHECK_MESSAGE(not_once == 0, not_once << " outputs not written exactly once");
}

// Small shapes (the emulation runs every thread of every block), the last input dimension a multiple
// of 4 so the input_patch order applies; transposed problems with at least one phase GEMM.
ConvProblem small_problem(std::mt19937_64& rng, OpKind op, int rank, std::int64_t cin_pg, std::int64_t cout_pg) {
  for (;;) {
    ConvProblem p = gpu_tests::random_problem(rng, op, rank, cin_pg, cout_pg, gpu_tests::small_shapes());
    if (op == OpKind::conv) p.input[rank - 1] = 4 * pick(rng, 1, rank == 1 ? 12 : 4);
    if (!validate_problem(p)) continue;
    if (op == OpKind::conv_transpose && gpu::conv::transposed_gemms(as_rank3(p)).empty()) continue;
    return p;
  }
}

constexpr Family kForward[] = {Family::implicit_gemm_ffma, Family::implicit_gemm_3xtf32, Family::implicit_gemm_tf32};
constexpr Family kTransposed[] = {Family::transposed_phase_ffma, Family::transposed_phase_3xtf32,
                                  Family::transposed_phase_tf32};
constexpr ig::KOrder kOrders[] = {ig::KOrder::channel_blocks, ig::KOrder::k_table, ig::KOrder::input_patch};

MathMode math_for(Family f) { return gpu::conv::family_math(f); }

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated implicit GEMM, forward: every order x math on 1-D and 2-D shapes, every tile") {
    std::mt19937_64 rng(kbench::testing::test_seed(2026));
    // Output channels per group pick the tile: <= 64, <= 96, > 96 (two row tiles at 130).
    const std::int64_t couts[] = {8, 96, 130};
    int trial = 0;
    for (const std::int64_t cout : couts)
      for (const Family f : kForward)
        for (const ig::KOrder order : kOrders) {
          const ConvProblem p = small_problem(rng, OpKind::conv, 1 + trial % 2, pick(rng, 1, 5), cout);
          CAPTURE(trial);
          check(p, KernelChoice{.family = f, .order = order}, math_for(f), 700 + static_cast<std::uint64_t>(++trial));
        }
  }

  TEST_CASE("emulated implicit GEMM: stride-1 transposed problems as forward, every order x math, wgmma") {
    std::mt19937_64 rng(kbench::testing::test_seed(2027));
    gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
    limits.stride = 1;
    int trial = 0, wgmma = 0;
    for (const Family f : kForward)
      for (const ig::KOrder order : kOrders) {
        ConvProblem p;
        do {  // rows of a multiple of 4 floats, so that the input_patch order applies
          p = gpu_tests::random_problem(rng, OpKind::conv_transpose, 1 + trial % 2, pick(rng, 1, 5), pick(rng, 8, 40),
                                        limits);
          p.input[p.spatial_rank - 1] = 4 * pick(rng, 1, 4);
        } while (!validate_problem(p) || !gpu::conv::forward_equivalent(p) ||
                 !gpu::conv::choice_envelope(KernelChoice{.family = f, .order = order}, p, math_for(f)));
        CAPTURE(trial);
        check(p, KernelChoice{.family = f, .order = order}, math_for(f), 750 + static_cast<std::uint64_t>(++trial));
        if (f != Family::implicit_gemm_ffma && order == ig::KOrder::input_patch) {
          const KernelChoice on_wgmma{.family = f, .order = order, .mma = ig::MmaKind::wgmma};
          if (gpu::conv::choice_envelope(on_wgmma, p, math_for(f))) {
            check(p, on_wgmma, math_for(f), 790 + static_cast<std::uint64_t>(trial));
            ++wgmma;
          }
        }
      }
    CHECK(wgmma > 0);
  }

  TEST_CASE(
      "emulated implicit GEMM, forward: random channel counts (partial channel blocks, row tiles), default orders") {
    std::mt19937_64 rng(kbench::testing::test_seed(31));
    for (int trial = 0; trial < 9; ++trial) {
      const ConvProblem p = small_problem(rng, OpKind::conv, 1 + trial % 3, pick(rng, 1, 40), pick(rng, 1, 140));
      const Family f = kForward[trial % 3];
      CAPTURE(trial);
      check(p, KernelChoice{.family = f}, math_for(f), 600 + static_cast<std::uint64_t>(trial));
    }
  }

  TEST_CASE("emulated implicit GEMM: problem 50 in miniature (input_patch, 96x256, masked last chunk, two images)") {
    const ConvProblem p =
        kbench::testing::resized(kbench::testing::headline50(), 2, Dims{{27, 28, 1}});
    REQUIRE(gpu::conv::forward_gemm_ordered(as_rank3(p)).desc.order == ig::KOrder::input_patch);
    for (const Family f : kForward) check(p, KernelChoice{.family = f}, math_for(f), 50);
  }

  TEST_CASE("emulated implicit GEMM, wgmma: problem 50 in miniature and edges of the tile, both tensor-core maths") {
    // Problem 50's channels and kernel (23 chunks, the last with 11 rows); 2-D with 1,440 outputs per
    // image (six column tiles, the last partial) and a 2-row last chunk; 100 output channels (two row
    // tiles, padded rows not stored) with two groups; 1-D with stride 2.
    const ConvProblem cases[] = {
        kbench::testing::resized(kbench::testing::headline50(), 2, Dims{{27, 28, 1}}),
        ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 2, .out_channels = 20,
                    .input = Dims{{40, 36, 1}}, .kernel = Dims{{3, 3, 1}}, .pad_before = Dims{{1, 1, 0}},
                    .pad_after = Dims{{1, 1, 0}}},
        ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 2, .out_channels = 200,
                    .groups = 2, .input = Dims{{20, 20, 1}}, .kernel = Dims{{5, 5, 1}}, .bias = true},
        ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 2, .in_channels = 3, .out_channels = 16,
                    .input = Dims{{1000, 1, 1}}, .kernel = Dims{{7, 1, 1}}, .stride = Dims{{2, 1, 1}},
                    .pad_before = Dims{{3, 0, 0}}, .pad_after = Dims{{3, 0, 0}}, .bias = true},
    };
    std::uint64_t seed = 5000;
    for (const ConvProblem& p : cases)
      for (const Family f : {Family::implicit_gemm_tf32, Family::implicit_gemm_3xtf32}) {
        const KernelChoice c{.family = f, .order = ig::KOrder::input_patch, .mma = ig::MmaKind::wgmma};
        check(p, c, math_for(f), ++seed);
      }
  }

  TEST_CASE("emulated implicit GEMM, wgmma: random 1-D and 2-D shapes in the input_patch envelope") {
    // Small random shapes with random stride, dilation, padding, groups, bias and channel counts (up
    // to two row tiles): patch geometries at the edges (outputs narrower than the padding, one-row
    // images) that the fixed cases above do not reach.
    std::mt19937_64 rng(kbench::testing::test_seed(9696));
    for (int trial = 0; trial < 8; ++trial) {
      const Family f = trial % 2 == 0 ? Family::implicit_gemm_tf32 : Family::implicit_gemm_3xtf32;
      const KernelChoice c{.family = f, .order = ig::KOrder::input_patch, .mma = ig::MmaKind::wgmma};
      ConvProblem p = small_problem(rng, OpKind::conv, 1 + trial % 2, pick(rng, 1, 6), pick(rng, 1, 120));
      while (!gpu::conv::choice_envelope(c, p, math_for(f)).ok)
        p = small_problem(rng, OpKind::conv, 1 + trial % 2, pick(rng, 1, 6), pick(rng, 1, 120));
      CAPTURE(trial);
      check(p, c, math_for(f), 5100 + static_cast<std::uint64_t>(trial));
    }
  }

  TEST_CASE("emulated implicit GEMM: problems 76 and 77 in miniature (their channel counts, orders and tiles)") {
    // 76: 64 -> 128 channels, k3 s3 d4: channel_blocks on the 128x256 tile, 12 chunks.
    const ConvProblem s76 = kbench::testing::resized(kbench::testing::headline76(), 2, Dims{{300, 1, 1}});
    // 77: 32 -> 64 channels, 3x3x3, stride 2, dilation 2, padding 1: one phase GEMM (odd outputs),
    // 88% of the output written by the zero fill and the epilogue's tails.
    const ConvProblem s77 = kbench::testing::resized(kbench::testing::headline77(), 1, Dims{{3, 4, 4}});
    REQUIRE(gpu::conv::forward_gemm_ordered(as_rank3(s76)).desc.order == ig::KOrder::channel_blocks);
    for (const Family f : kForward) check(s76, KernelChoice{.family = f}, math_for(f), 76);
    for (const Family f : kTransposed) {
      check(s77, KernelChoice{.family = f}, math_for(f), 77);
      check(s77, KernelChoice{.family = f, .fill = gpu::conv::FillBlocks::none}, math_for(f), 77);
    }
  }

  TEST_CASE("emulated implicit GEMM: long 1-D kernels, past 1,024 taps and 2,048 reduction rows") {
    const Dims one{{1, 1, 1}}, none{{0, 0, 0}};
    // 16 channels x 1,030 taps: channel blocks with a 16.5 KB tap list in shared memory.
    const ConvProblem wide =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 1, .in_channels = 16, .out_channels = 8,
                    .input = Dims{{1040, 1, 1}}, .kernel = Dims{{1030, 1, 1}}, .stride = one, .dilation = one,
                    .pad_before = none, .pad_after = none, .bias = true};
    REQUIRE(gpu::conv::forward_gemm_ordered(as_rank3(wide)).desc.order == ig::KOrder::channel_blocks);
    check(wide, KernelChoice{Family::implicit_gemm_3xtf32}, MathMode::fp32, 1030);
    // 2 channels x 1,030 taps, 2,060 rows: the input_patch order by default (few channels), k_table forced.
    const ConvProblem few =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 2, .in_channels = 2, .out_channels = 8,
                    .input = Dims{{1060, 1, 1}}, .kernel = Dims{{1030, 1, 1}}, .stride = one, .dilation = one,
                    .pad_before = none, .pad_after = none};
    REQUIRE(gpu::conv::forward_gemm_ordered(as_rank3(few)).desc.order == ig::KOrder::input_patch);
    for (const Family f : kForward) {
      check(few, KernelChoice{.family = f}, math_for(f), 2060);
      check(few, KernelChoice{.family = f, .order = ig::KOrder::k_table}, math_for(f), 2061);
    }
    // Transposed at stride 1: one phase GEMM of all 1,030 taps (cropped by 500 a side to 31 outputs,
    // one column tile).
    const ConvProblem up = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 1, .batch = 1, .in_channels = 16,
                                       .out_channels = 8, .input = Dims{{2, 1, 1}}, .kernel = Dims{{1030, 1, 1}},
                                       .stride = one, .dilation = one, .pad_before = Dims{{500, 0, 0}},
                                       .pad_after = Dims{{500, 0, 0}}};
    check(up, KernelChoice{Family::transposed_phase_tf32}, MathMode::tf32, 1031);
  }

  TEST_CASE("emulated implicit GEMM, resident A: persistent blocks over several column tiles, both tensor-core maths") {
    const KernelChoice resident[] = {
        KernelChoice{.family = Family::implicit_gemm_3xtf32,
                     .order = ig::KOrder::channel_blocks,
                     .schedule = ig::ASchedule::resident},
        KernelChoice{.family = Family::implicit_gemm_tf32,
                     .order = ig::KOrder::channel_blocks,
                     .schedule = ig::ASchedule::resident},
    };
    // Problem 76 in miniature (12 chunks of A resident): two images of 172 outputs (even: pair stores),
    // so a tile straddles them; 2 blocks walk the 2 tiles, then 1 block walks both.
    const ConvProblem s76 = kbench::testing::resized(kbench::testing::headline76(), 2, Dims{{522, 1, 1}});
    // Odd output volume (9 x 23: scalar stores, pairs split between two images), bias, a partial
    // channel block, three images, 2-D; and 200 output channels (two row tiles, padded rows not stored).
    const ConvProblem odd = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 3, .in_channels = 12,
                                        .out_channels = 100, .input = Dims{{9, 24, 1}}, .kernel = Dims{{3, 3, 1}},
                                        .pad_before = Dims{{1, 1, 0}}, .pad_after = Dims{{1, 0, 0}}, .bias = true};
    const ConvProblem tall = ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 2, .in_channels = 5,
                                         .out_channels = 200, .input = Dims{{300, 1, 1}}, .kernel = Dims{{2, 1, 1}},
                                         .bias = true};
    REQUIRE(s76.output_spatial_volume() == 172);
    REQUIRE(odd.output_spatial_volume() == 9 * 23);
    std::uint64_t seed = 900;
    for (const KernelChoice& c : resident) {
      CAPTURE(gpu::conv::variant_name(c));
      for (const std::int64_t blocks : {2, 1}) check(s76, c, math_for(c.family), ++seed, blocks);
      check(odd, c, math_for(c.family), ++seed, 2);
      check(tall, c, math_for(c.family), ++seed, 3);
    }
  }

  TEST_CASE("emulated implicit GEMM, split-K: partial tiles summed by the reduction, forward and transposed") {
    // A late ResNet layer in miniature: 40 -> 100 channels at 3x3 (27 channel-block chunks, two row
    // tiles of 96), batch 1, bias; 4 splits (27 chunks: ranges of 6 and 7) and 27 (one chunk each).
    const ConvProblem late = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 40,
                                         .out_channels = 100, .input = Dims{{7, 7, 1}}, .kernel = Dims{{3, 3, 1}},
                                         .pad_before = Dims{{1, 1, 0}}, .pad_after = Dims{{1, 1, 0}}, .bias = true};
    REQUIRE(gpu::conv::forward_gemm_ordered(as_rank3(late)).desc.chunks == 27);
    std::uint64_t seed = 4300;
    for (const Family f : kForward)
      for (const std::int64_t splits : {4, 27}) check(late, KernelChoice{.family = f}, math_for(f), ++seed, 3, splits);
    // Random shapes: every math x gathered order, groups (grid z = groups x splits), 1-D to 3-D, 2 to 5
    // splits (some more than a short reduction's chunks: those splits add zero tiles).
    std::mt19937_64 rng(kbench::testing::test_seed(4242));
    int trial = 0;
    for (const Family f : kForward)
      for (const ig::KOrder order : {ig::KOrder::channel_blocks, ig::KOrder::k_table}) {
        const ConvProblem p = small_problem(rng, OpKind::conv, 1 + trial % 3, pick(rng, 1, 40), pick(rng, 1, 140));
        CAPTURE(trial);
        check(p, KernelChoice{.family = f, .order = order}, math_for(f), 4400 + static_cast<std::uint64_t>(++trial), 3,
              pick(rng, 2, 5));
      }
    // Transposed phases: the reduction writes the untapped neighbours (tails, leads) as the epilogue
    // does, beside the first GEMM's zero fill of untapped planes (its fill-only blocks in every split).
    for (const Family f : kTransposed)
      for (int i = 0; i < 2; ++i) {
        const ConvProblem p = small_problem(rng, OpKind::conv_transpose, 1 + i, pick(rng, 1, 40), pick(rng, 1, 70));
        CAPTURE(trial);
        check(p, KernelChoice{.family = f}, math_for(f), 4400 + static_cast<std::uint64_t>(++trial), 3,
              pick(rng, 2, 5));
      }
    const ConvProblem s77 = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 3, .batch = 1, .in_channels = 32,
                                        .out_channels = 64, .input = Dims{{3, 4, 4}}, .kernel = Dims{{3, 3, 3}},
                                        .stride = Dims{{2, 2, 2}}, .dilation = Dims{{2, 2, 2}},
                                        .pad_before = Dims{{1, 1, 1}}, .pad_after = Dims{{1, 1, 1}}, .bias = true};
    check(s77, KernelChoice{Family::transposed_phase_tf32}, MathMode::tf32, 4477, 3, 3);
  }

  TEST_CASE("emulated zero fill alone: a transposed convolution whose every output is the bias") {
    // Stride 4, dilation 4, one tap, padding 1: no output receives a tap (zero_fill.cu's kernel, as
    // the launch enqueues it when there is no phase GEMM: its body is zero_fill_planes).
    const ConvProblem p = ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 3, .in_channels = 4,
                                      .out_channels = 8, .stride = Dims{{4, 4, 1}}, .dilation = Dims{{4, 4, 1}},
                                      .pad_before = Dims{{1, 1, 0}}, .output_padding = Dims{{2, 3, 0}}, .bias = true};
    const ConvProblem p3 = as_rank3(p);
    REQUIRE(gpu::conv::transposed_gemms(p3).empty());
    const gpu::conv::ZeroFillParams z = gpu::conv::make_zero_fill_params(p3);
    const data::HostTensors t = data::make_host_tensors(p, 3);
    std::vector<float> y(static_cast<std::size_t>(p.output_elements()), kPoison);
    emu::clear_buffers();
    emu::allow_write(y.data(), y.size() * sizeof(float));
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(z.planes, 65535));
    emu::launch(emu::Dim3{blocks}, emu::Dim3{256}, nullptr, 0,
                [&] { gpu::conv::zero_fill_planes(z, t.bias.data(), y.data(), blockIdx.x, gridDim.x); });
    const Comparison c = compare_outputs(y, reference::convolve(p, t), default_tolerance(MathMode::fp32));
    CHECK(c.passed());
  }

  TEST_CASE("emulated implicit GEMM, 3-D forward and transposed phases with the zero fill") {
    std::mt19937_64 rng(kbench::testing::test_seed(77));
    int trial = 0;
    for (const Family f : kForward) {
      const ConvProblem p = small_problem(rng, OpKind::conv, 3, pick(rng, 1, 20), pick(rng, 1, 70));
      CAPTURE(trial);
      check(p, KernelChoice{.family = f}, math_for(f), 800 + static_cast<std::uint64_t>(++trial));
    }
    for (const Family f : kTransposed)
      for (int i = 0; i < 3; ++i) {
        const ConvProblem p = small_problem(rng, OpKind::conv_transpose, 1 + i, pick(rng, 1, 20), pick(rng, 1, 70));
        CAPTURE(trial);
        check(p, KernelChoice{.family = f}, math_for(f), 800 + static_cast<std::uint64_t>(++trial));
      }
  }

}  // TEST_SUITE

}  // namespace kbench
