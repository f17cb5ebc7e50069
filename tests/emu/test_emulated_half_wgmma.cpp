// The fp16/bf16 implicit GEMM's wgmma variant (half_wgmma_kernel.cuh) from its own source on the CPU
// under the CUDA emulation, in fp16 and bf16, NHWC (16-byte cp.async) and NCHW (gathers), against the
// fp64 reference within the error bound of emulated_typed_run.hpp. Its m64n64k16 products are
// emulated from the PTX ISA's layouts (shadow wgmma_ops.cuh): operands read through the descriptors
// when the product lands, at the wgmma.wait_group covering it, so a descriptor addressing the wrong
// element, a stage refilled before its products were waited for, or a chunk never multiplied fails.
// The transposed phase GEMMs on this kernel: test_emulated_half_phase.cpp.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>

#include "cuda/family_table.hpp"
#include "cuda/half_gemm/half_wgmma_kernel.cuh"
#include "emulated_typed_run.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

// The kernels' `extern __shared__` array, as the emulation provides it: defined in test_emulated_half.cpp.
namespace kbench::gpu::conv::half_gemm {
extern unsigned char smem[];
}

namespace kbench {
namespace {

namespace hg = gpu::conv::half_gemm;
using emu_tests::Stored;
using gpu_tests::make_problem;
using gpu_tests::pick;

const gpu::conv::KernelChoice kHalfWgmma{.family = gpu::conv::Family::implicit_gemm_half,
                                         .mma = gpu::conv::igemm::MmaKind::wgmma};

template <DType kType>
void launch_half_wgmma(const hg::HalfGemmDesc& d, const Stored<kType>* x, const Stored<kType>* w,
                       const Stored<kType>* b, Stored<kType>* y) {
  const emu::Dim3 grid{static_cast<unsigned>(d.row_tiles), static_cast<unsigned>(d.col_tiles),
                       static_cast<unsigned>(d.p3.groups)};
  emu::launch(grid, emu::Dim3{hg::kThreads}, hg::smem, hg::kWgmmaSmemBytes, [&] {
    if (d.vector_loads)
      hg::half_wgmma_kernel<kType, true>(d, x, w, b, y);
    else
      hg::half_wgmma_kernel<kType, false>(d, x, w, b, y);
  });
}

template <DType kType>
void check_half_wgmma(ConvProblem p, Layout layout, std::uint64_t seed) {
  p.dtype = kType;
  p.layout = layout;
  REQUIRE(gpu::conv::choice_envelope(kHalfWgmma, p, MathMode::fp32).ok);
  const hg::HalfGemmDesc d = hg::make_half_gemm_desc(p);
  emu_tests::run_typed_sequence_and_compare<kType>(
      p, seed, [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        launch_half_wgmma<kType>(d, x, w, b, y);
      });
}

// Both element types in both layouts; returns whether NHWC ran the 16-byte copies.
bool check_half_wgmma_everywhere(const ConvProblem& p, std::uint64_t seed) {
  for (const Layout layout : {Layout::nhwc, Layout::nchw}) {
    CAPTURE(to_string(layout));
    check_half_wgmma<DType::fp16>(p, layout, seed);
    check_half_wgmma<DType::bf16>(p, layout, seed + 1);
  }
  ConvProblem nhwc = p;
  nhwc.layout = Layout::nhwc;
  return hg::make_half_gemm_desc(nhwc).vector_loads;
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated fp16/bf16 wgmma GEMM: ranks, groups, stride, padding, dilation, bias, partial tiles") {
    using D = Dims;
    const OpKind conv = OpKind::conv;
    // (rank, n, cin, cout, groups, input, kernel, stride, dilation, pad before, pad after, bias)
    const ConvProblem shapes[] = {
        // 2-D, 16 channels (vector loads), padding, bias; M 126 (2 row tiles, the second partial),
        // K 144 (5 chunks: every stage of the pipeline refilled once, the last chunk partial)
        make_problem(conv, 2, 2, 16, 24, 1, D{{9, 7, 0}}, D{{3, 3, 0}}, D{{1, 1, 0}}, D{{1, 1, 0}}, D{{1, 1, 0}},
                     D{{1, 1, 0}}, true),
        // 1-D, stride 2, dilation 2, asymmetric padding, K = 40 (a partial second chunk), no bias
        make_problem(conv, 1, 1, 8, 16, 1, D{{37, 0, 0}}, D{{5, 0, 0}}, D{{2, 0, 0}}, D{{2, 0, 0}}, D{{3, 0, 0}},
                     D{{1, 0, 0}}, false),
        // 3-D, groups of 8 -> 12 channels, bias
        make_problem(conv, 3, 1, 16, 24, 2, D{{3, 5, 4}}, D{{2, 3, 2}}, D{{1, 1, 2}}, D{{1, 1, 1}}, D{{0, 1, 1}},
                     D{{1, 1, 0}}, true),
        // 2-D, 3 input channels (gathered in either layout), 70 output channels (2 column tiles, the
        // second partial), stride 4
        make_problem(conv, 2, 1, 3, 70, 1, D{{19, 19, 0}}, D{{5, 5, 0}}, D{{4, 4, 0}}, D{{1, 1, 0}}, D{{2, 2, 0}},
                     D{{2, 2, 0}}, true),
        // 2-D, groups of 12 input channels (gathered), 8 output channels per group
        make_problem(conv, 2, 2, 36, 24, 3, D{{6, 5, 0}}, D{{3, 1, 0}}, D{{1, 2, 0}}, D{{2, 1, 0}}, D{{2, 0, 0}},
                     D{{0, 1, 0}}, true),
        // 2-D, 24 channels, 130 output channels (3 column tiles), K 216 (7 chunks, the last of 24), bias
        make_problem(conv, 2, 1, 24, 130, 1, D{{6, 6, 0}}, D{{3, 3, 0}}, D{{1, 1, 0}}, D{{1, 1, 0}}, D{{1, 1, 0}},
                     D{{1, 1, 0}}, true),
    };
    int vector = 0;
    for (std::size_t i = 0; i < std::size(shapes); ++i) {
      CAPTURE(i);
      vector += check_half_wgmma_everywhere(shapes[i], 7600 + 10 * i) ? 1 : 0;
    }
    CHECK(vector == 4);  // both load paths ran
  }

  TEST_CASE("emulated fp16/bf16 wgmma GEMM: random problems") {
    std::mt19937_64 rng(kbench::testing::test_seed(7676));
    gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
    limits.input[0] = 24;
    limits.input[1] = 7;
    limits.input[2] = 4;
    for (int trial = 0; trial < 4; ++trial) {
      const std::int64_t cin_pg = trial == 1 ? 5 : 8 * pick(rng, 1, 3);
      const ConvProblem p =
          gpu_tests::random_problem(rng, OpKind::conv, 1 + trial % 3, cin_pg, pick(rng, 8, 72), limits);
      CAPTURE(trial);
      check_half_wgmma_everywhere(p, 7700 + 10 * static_cast<std::uint64_t>(trial));
    }
  }
}

}  // namespace kbench
