// The fp16/bf16 transposed convolution by phases (transposed_phase_half) from its own sources on the
// CPU under the CUDA emulation, every launch of one run in its order: the bias fill, then each tapped
// phase's weight packing and tensor-core GEMM (m16n8k16 emulated from the PTX ISA's fragments), against
// the fp64 reference within the error bound of emulated_typed_run.hpp, in fp16 and bf16, NHWC and NCHW;
// and the same launches with each phase GEMM on the wgmma kernel (half_wgmma_kernel.cuh), which takes
// the phase descriptors as they are.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/registry.hpp"
#include "cuda/transposed_phase_half/half_phase_kernel.cuh"
#include "half_gemm_emulated.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace hg = gpu::conv::half_gemm;
using emu_tests::Stored;
using gpu_tests::pick;

// Blocks for a grid-stride launch over `units`: fewer than the units, so the loops take several rounds.
unsigned strided_blocks(std::int64_t units) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, units / (3 * hg::kPhaseThreads)));
}

// The launches HalfPhaseLaunch::enqueue makes (half_phase_launcher.cpp), under the emulation; with
// `wgmma`, each phase GEMM on the wgmma kernel.
template <DType kType>
void check_half_phase(ConvProblem p, Layout layout, std::uint64_t seed, bool wgmma = false) {
  p.dtype = kType;
  p.layout = layout;
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::transposed_phase_half, p, MathMode::fp32).ok);
  const std::vector<hg::HalfPhaseGemm> gemms = hg::make_half_phase_gemms(p);
  const hg::BiasFillParams fill = hg::make_bias_fill_params(p);
  std::vector<std::uint16_t> packed(static_cast<std::size_t>(gpu::conv::half_phase_packed_elements(gemms)));
  emu_tests::run_typed_sequence_and_compare<kType>(
      p, seed, [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        emu::allow_read(packed.data(), packed.size() * sizeof packed[0]);
        if (fill.has_work) {
          const bool vectors = hg::fill_vectors(fill);
          // Fewer blocks than lines: the grid-stride loop takes several rounds.
          const auto blocks = static_cast<unsigned>(std::max<std::int64_t>(1, fill.lines / 3));
          emu::launch(emu::Dim3{blocks}, emu::Dim3{hg::kPhaseThreads}, nullptr, 0, [&] {
            if (vectors)
              hg::untapped_bias_fill_kernel<true>(fill, b, y);
            else
              hg::untapped_bias_fill_kernel<false>(fill, b, y);
          });
        }
        for (const hg::HalfPhaseGemm& g : gemms) {
          emu::launch(emu::Dim3{strided_blocks(hg::packed_elements(g))}, emu::Dim3{hg::kPhaseThreads}, nullptr, 0,
                      [&] { hg::pack_phase_weights_kernel(g, w, packed.data() + g.packed_offset); });
          emu_tests::launch_half_gemm<kType>(g.desc, x, packed.data() + g.packed_offset, b, y, wgmma);
        }
      });
}

// Both element types in both layouts, each phase GEMM on the wgmma kernel with `wgmma`.
void check_half_phase_everywhere(const ConvProblem& p, std::uint64_t seed, bool wgmma = false) {
  emu_tests::in_both_types_and_layouts(seed, [&](auto type, Layout layout, std::uint64_t s) {
    check_half_phase<decltype(type)::value>(p, layout, s, wgmma);
  });
}

// Transposed shapes (rank, n, cin, cout, groups, input, kernel, stride, dilation, pad before, pad
// after, bias, output_padding); the first three also run on the wgmma kernel.
std::vector<ConvProblem> transposed_half_shapes() {
  using D = Dims;
  const OpKind t = OpKind::conv_transpose;
  return {
      // problem 77's kind, small: 3-D, stride 2, dilation 2 (7 of 8 phase combinations untapped), 16 -> 16
      // channels (vector loads and vector fills under NHWC), bias
      ConvProblem{.op = t, .spatial_rank = 3, .batch = 1, .in_channels = 16, .out_channels = 16, .input = D{{3, 4, 3}},
                  .kernel = D{{3, 3, 3}}, .stride = D{{2, 2, 2}}, .dilation = D{{2, 2, 2}}, .pad_before = D{{1, 1, 1}},
                  .pad_after = D{{1, 1, 1}}, .bias = true},
      // 2-D, stride 3, dilation 2: every phase tapped, 1 or 2 taps each; output_padding; no bias
      ConvProblem{.op = t, .spatial_rank = 2, .batch = 2, .in_channels = 8, .out_channels = 24, .input = D{{5, 4, 0}},
                  .kernel = D{{4, 3, 0}}, .stride = D{{3, 3, 0}}, .dilation = D{{2, 2, 0}}, .pad_before = D{{2, 1, 0}},
                  .pad_after = D{{1, 0, 0}}, .output_padding = D{{1, 2, 0}}},
      // 1-D, stride 1 (one phase, every tap, the forward correlation flipped), 5 input channels (gathered)
      ConvProblem{.op = t, .spatial_rank = 1, .batch = 2, .in_channels = 5, .out_channels = 12, .input = D{{23, 0, 0}},
                  .kernel = D{{5, 0, 0}}, .stride = D{{1, 0, 0}}, .dilation = D{{1, 0, 0}}, .pad_before = D{{2, 0, 0}},
                  .pad_after = D{{3, 0, 0}}, .bias = true},
      // 2-D, groups of 8 -> 10 channels (a fill of elements, C_out not a multiple of 8), stride 2, bias
      ConvProblem{.op = t, .spatial_rank = 2, .batch = 1, .in_channels = 16, .out_channels = 20, .groups = 2,
                  .input = D{{4, 5, 0}}, .kernel = D{{3, 2, 0}}, .stride = D{{2, 2, 0}}, .dilation = D{{1, 1, 0}},
                  .pad_before = D{{0, 1, 0}}, .pad_after = D{{1, 0, 0}}, .output_padding = D{{1, 0, 0}}, .bias = true},
      // 2-D, 70 output channels (2 column tiles), stride 2, kernel 4: each phase 2 x 2 taps
      ConvProblem{.op = t, .spatial_rank = 2, .batch = 1, .in_channels = 8, .out_channels = 70, .input = D{{6, 5, 0}},
                  .kernel = D{{4, 4, 0}}, .stride = D{{2, 2, 0}}, .dilation = D{{1, 1, 0}}, .pad_before = D{{1, 1, 0}},
                  .pad_after = D{{1, 1, 0}}, .bias = true},
  };
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated fp16/bf16 transposed GEMMs by phases: untapped phases, strides, groups, padding, both layouts") {
    const std::vector<ConvProblem> shapes = transposed_half_shapes();
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      CAPTURE(i);
      check_half_phase_everywhere(shapes[i], 7700 + 10 * i);
    }
  }

  TEST_CASE("emulated fp16/bf16 transposed GEMMs by phases on the wgmma kernel: the phase descriptors") {
    const std::vector<ConvProblem> shapes = transposed_half_shapes();
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      check_half_phase_everywhere(shapes[i], 7950 + 10 * i, true);
    }
  }

  TEST_CASE("emulated fp16/bf16 transposed GEMMs by phases: random problems") {
    std::mt19937_64 rng(kbench::testing::test_seed(7777));
    gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
    limits.input[0] = 12;
    limits.input[1] = 5;
    limits.input[2] = 3;
    for (int trial = 0; trial < 3; ++trial) {
      const std::int64_t cin_pg = trial == 1 ? 3 : 8;
      const ConvProblem p =
          gpu_tests::random_problem(rng, OpKind::conv_transpose, 1 + trial % 3, cin_pg, pick(rng, 8, 20), limits);
      CAPTURE(trial);
      check_half_phase_everywhere(p, 7800 + 10 * static_cast<std::uint64_t>(trial));
    }
  }
}

}  // namespace kbench
