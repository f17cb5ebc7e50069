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

#include "half_gemm_emulated.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

using gpu_tests::pick;

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated fp16/bf16 wgmma GEMM: ranks, groups, stride, padding, dilation, bias, partial tiles") {
    using D = Dims;
    // The family's forward shapes, and one of 130 output channels (3 column tiles) over K 216 (7
    // chunks, the last of 24), bias.
    std::vector<ConvProblem> shapes = emu_tests::forward_half_gemm_shapes();
    shapes.push_back(ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 24,
                                 .out_channels = 130, .input = D{{6, 6, 0}}, .kernel = D{{3, 3, 0}},
                                 .stride = D{{1, 1, 0}}, .dilation = D{{1, 1, 0}}, .pad_before = D{{1, 1, 0}},
                                 .pad_after = D{{1, 1, 0}}, .bias = true});
    int vector = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      CAPTURE(i);
      vector += emu_tests::check_forward_half_gemm_everywhere(shapes[i], 7600 + 10 * i, true) ? 1 : 0;
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
      emu_tests::check_forward_half_gemm_everywhere(p, 7700 + 10 * static_cast<std::uint64_t>(trial), true);
    }
  }
}

}  // namespace kbench
