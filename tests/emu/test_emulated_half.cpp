// fp16, bf16 and channels-last kernels from their own sources on the CPU under the CUDA emulation,
// against the fp64 reference within an error bound (emulated_typed_run.hpp): the generic direct
// kernel in every dtype x layout on random problems of every kind and rank, and the tensor-core
// implicit GEMM (implicit_gemm_half) in fp16 and bf16, NHWC (16-byte cp.async) and NCHW (gathers),
// its m16n8k16 products emulated from the PTX ISA's fragment layouts (shadow device_ops.cuh).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "cuda/direct/direct_kernel.cuh"
#include "cuda/registry.hpp"
#include "emulated_typed_run.hpp"
#include "half_gemm_emulated.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

// The GEMMs' `extern __shared__` array (half_gemm_emulated.hpp), as the emulation provides it (one
// block runs at a time), for the mma.sync kernel and the wgmma one.
namespace kbench::gpu::conv::half_gemm {
alignas(16) unsigned char smem[std::max(kSmemBytes, kWgmmaSmemBytes)];
}

namespace kbench {
namespace {

using emu_tests::run_typed_and_compare;
using emu_tests::Stored;
using gpu_tests::pick;

template <DType kType, Layout kLayout>
void check_direct_typed(const ConvProblem& p, std::uint64_t seed) {
  const gpu::conv::DirectParams d = gpu::conv::make_direct_params(p);
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
    const std::vector<ConvProblem> shapes = emu_tests::forward_half_gemm_shapes();
    int vector = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      CAPTURE(i);
      vector += emu_tests::check_forward_half_gemm_everywhere(shapes[i], 2450 + 10 * i, false) ? 1 : 0;
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
      emu_tests::check_forward_half_gemm_everywhere(p, 2500 + 10 * static_cast<std::uint64_t>(trial), false);
    }
  }
}

}  // namespace kbench
