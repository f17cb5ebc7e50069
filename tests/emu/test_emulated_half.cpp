// fp16, bf16 and channels-last kernels from their own sources on the CPU under the CUDA emulation,
// against the fp64 reference within an error bound (emulated_typed_run.hpp): the generic direct
// kernel in every dtype x layout on random problems of every kind and rank, and the tensor-core
// implicit GEMM (implicit_gemm_half) in fp16 and bf16, NHWC (16-byte cp.async) and NCHW (gathers),
// its m16n8k16 products emulated from the PTX ISA's fragment layouts (shadow device_ops.cuh).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "cuda/direct/direct_conv_kernel.cuh"
#include "cuda/family_table.hpp"
#include "cuda/half_gemm/half_gemm_kernel.cuh"
#include "cuda/half_gemm/half_wgmma_index.hpp"
#include "emulated_typed_run.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

// The GEMMs' `extern __shared__` array, as the emulation provides it (one block runs at a time), for
// the mma.sync kernel and the wgmma one (test_emulated_half_wgmma.cpp).
namespace kbench::gpu::conv::half_gemm {
alignas(16) unsigned char smem[std::max(kSmemBytes, kWgmmaSmemBytes)];
}

namespace kbench {
namespace {

namespace hg = gpu::conv::half_gemm;
using emu_tests::run_typed_and_compare;
using emu_tests::Stored;
using gpu_tests::make_problem;
using gpu_tests::pick;

template <DType kType, Layout kLayout>
void check_direct_typed(const ConvProblem& p, std::uint64_t seed) {
  const gpu::conv::DirectDesc d = gpu::conv::make_direct_desc(p);
  // Fewer blocks than outputs: the grid-stride loop runs more than one round.
  const auto blocks = static_cast<unsigned>(std::max<std::int64_t>(1, d.total / (3 * gpu::conv::kDirectThreads)));
  run_typed_and_compare<kType>(p, seed, emu::Dim3{blocks}, gpu::conv::kDirectThreads,
                               [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b,
                                   Stored<kType>* y) { gpu::conv::direct_conv_kernel<kType, kLayout>(d, x, w, b, y); });
}

template <DType kType>
void check_direct_layouts(ConvProblem p, std::uint64_t seed) {
  p.dtype = kType;
  p.layout = Layout::nchw;
  check_direct_typed<kType, Layout::nchw>(p, seed);
  p.layout = Layout::nhwc;
  check_direct_typed<kType, Layout::nhwc>(p, seed);
}

template <DType kType>
void check_half_gemm(ConvProblem p, Layout layout, std::uint64_t seed) {
  p.dtype = kType;
  p.layout = layout;
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::implicit_gemm_half, p, MathMode::fp32).ok);
  const hg::HalfGemmDesc d = hg::make_half_gemm_desc(p);
  const emu::Dim3 grid{static_cast<unsigned>(d.row_tiles), static_cast<unsigned>(d.col_tiles),
                       static_cast<unsigned>(p.groups)};
  run_typed_and_compare<kType>(
      p, seed, grid, hg::kThreads,
      [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        if (d.vector_loads)
          hg::half_gemm_kernel<kType, true>(d, x, w, b, y);
        else
          hg::half_gemm_kernel<kType, false>(d, x, w, b, y);
      },
      hg::smem, hg::kSmemBytes);
}

// Both element types in both layouts; returns whether NHWC ran the 16-byte copies.
bool check_half_gemm_everywhere(const ConvProblem& p, std::uint64_t seed) {
  for (const Layout layout : {Layout::nhwc, Layout::nchw}) {
    CAPTURE(to_string(layout));
    check_half_gemm<DType::fp16>(p, layout, seed);
    check_half_gemm<DType::bf16>(p, layout, seed + 1);
  }
  ConvProblem nhwc = p;
  nhwc.layout = Layout::nhwc;
  return hg::make_half_gemm_desc(nhwc).vector_loads;
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated direct kernel: fp16, bf16 and fp32 in NCHW and NHWC, random problems of every kind and rank") {
    std::mt19937_64 rng(kbench::testing::test_seed(24));
    for (int trial = 0; trial < 6; ++trial) {
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      const ConvProblem p = gpu_tests::random_problem(rng, op, 1 + trial % 3, pick(rng, 1, 3), pick(rng, 1, 3),
                                                      gpu_tests::small_shapes());
      CAPTURE(trial);
      const auto seed = 2400 + static_cast<std::uint64_t>(trial);
      check_direct_layouts<DType::fp16>(p, seed);
      check_direct_layouts<DType::bf16>(p, seed);
      check_direct_layouts<DType::fp32>(p, seed);
    }
  }

  TEST_CASE("emulated fp16/bf16 tensor-core GEMM: ranks, groups, stride, padding, dilation, bias, both layouts") {
    using D = Dims;
    const OpKind conv = OpKind::conv;
    // (rank, n, cin, cout, groups, input, kernel, stride, dilation, pad before, pad after, bias)
    const ConvProblem shapes[] = {
        // 2-D, 16 channels (vector loads), padding, bias; 2 x 2 row tiles
        make_problem(conv, 2, 2, 16, 24, 1, D{{9, 7, 0}}, D{{3, 3, 0}}, D{{1, 1, 0}}, D{{1, 1, 0}}, D{{1, 1, 0}},
                     D{{1, 1, 0}}, true),
        // 1-D, stride 2, dilation 2, asymmetric padding, K = 40 (a partial chunk), no bias
        make_problem(conv, 1, 1, 8, 16, 1, D{{37, 0, 0}}, D{{5, 0, 0}}, D{{2, 0, 0}}, D{{2, 0, 0}}, D{{3, 0, 0}},
                     D{{1, 0, 0}}, false),
        // 3-D, groups of 8 -> 12 channels, bias
        make_problem(conv, 3, 1, 16, 24, 2, D{{3, 5, 4}}, D{{2, 3, 2}}, D{{1, 1, 2}}, D{{1, 1, 1}}, D{{0, 1, 1}},
                     D{{1, 1, 0}}, true),
        // 2-D, 3 input channels (gathered in either layout: AlexNet-like), 70 output channels (2 column
        // tiles), stride 4
        make_problem(conv, 2, 1, 3, 70, 1, D{{19, 19, 0}}, D{{5, 5, 0}}, D{{4, 4, 0}}, D{{1, 1, 0}}, D{{2, 2, 0}},
                     D{{2, 2, 0}}, true),
        // 2-D, groups of 12 input channels (gathered), 8 output channels per group
        make_problem(conv, 2, 2, 36, 24, 3, D{{6, 5, 0}}, D{{3, 1, 0}}, D{{1, 2, 0}}, D{{2, 1, 0}}, D{{2, 0, 0}},
                     D{{0, 1, 0}}, true),
    };
    int vector = 0;
    for (std::size_t i = 0; i < std::size(shapes); ++i) {
      CAPTURE(i);
      vector += check_half_gemm_everywhere(shapes[i], 2450 + 10 * i) ? 1 : 0;
    }
    CHECK(vector == 3);  // both load paths ran
  }

  TEST_CASE("emulated fp16/bf16 tensor-core GEMM: random problems") {
    std::mt19937_64 rng(kbench::testing::test_seed(2424));
    gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
    limits.input[0] = 24;
    limits.input[1] = 7;
    limits.input[2] = 4;
    for (int trial = 0; trial < 3; ++trial) {
      const std::int64_t cin_pg = trial == 1 ? 5 : 8 * pick(rng, 1, 2);
      const ConvProblem p =
          gpu_tests::random_problem(rng, OpKind::conv, 1 + trial % 3, cin_pg, pick(rng, 8, 20), limits);
      CAPTURE(trial);
      check_half_gemm_everywhere(p, 2500 + 10 * static_cast<std::uint64_t>(trial));
    }
  }
}

}  // namespace kbench
