// The channels-last depthwise kernel (depthwise_nhwc_kernel.cuh) from its own source on the CPU under
// the CUDA emulation, in fp16, bf16 and fp32, against the fp64 reference within the error bound of
// emulated_typed_run.hpp (fp32 accumulation, one rounding): problem 84 in miniature, partial slices
// (C not a multiple of the slice), 1-D and 3-D, odd sizes, padding, stride, dilation, bias, edge
// tiles in rows and columns, strides past the kernel's span, and random problems. Every vector load
// is checked against the input buffers and every output must be stored exactly once.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>

#include "cuda/depthwise_nhwc/depthwise_nhwc_kernel.cuh"
#include "cuda/registry.hpp"
#include "emulated_typed_run.hpp"
#include "problem_factory.hpp"
#include "test_seed.hpp"

// The kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
namespace kbench::gpu::conv::depthwise_nhwc {
alignas(16) unsigned char smem[kMaxSmemBytes];
}

namespace kbench {
namespace {

namespace dn = gpu::conv::depthwise_nhwc;
using emu_tests::run_typed_and_compare;
using emu_tests::Stored;
using gpu_tests::pick;

template <DType kType>
void check_typed(ConvProblem p, std::uint64_t seed) {
  p.dtype = kType;
  p.layout = Layout::nhwc;
  REQUIRE(gpu::conv::family_envelope(gpu::conv::Family::depthwise_nhwc, p, MathMode::fp32).ok);
  const dn::Params t = dn::make_params(p);
  REQUIRE(t.smem_bytes() <= static_cast<std::int64_t>(sizeof dn::smem));
  run_typed_and_compare<kType>(
      p, seed, emu::Dim3{static_cast<unsigned>(t.blocks())}, dn::kThreads,
      [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        dn::depthwise_nhwc_kernel<kType>(t, x, w, b, y);
      },
      dn::smem, static_cast<std::size_t>(t.smem_bytes()), true);
}

void check_every_dtype(const ConvProblem& p, std::uint64_t seed) {
  check_typed<DType::fp16>(p, seed);
  check_typed<DType::bf16>(p, seed + 1);
  check_typed<DType::fp32>(p, seed + 2);
}

// A depthwise problem of the given rank and channels (a multiple of 8: every dtype's vectors).
ConvProblem depthwise(int rank, std::int64_t n, std::int64_t c, Dims input, Dims kernel, Dims stride, Dims dilation,
                      Dims pad_before, Dims pad_after, bool bias) {
  return ConvProblem{.op = OpKind::conv, .spatial_rank = rank, .batch = n, .in_channels = c, .out_channels = c,
                     .groups = c, .input = input, .kernel = kernel, .stride = stride, .dilation = dilation,
                     .pad_before = pad_before, .pad_after = pad_after, .bias = bias};
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE(
      "emulated depthwise NHWC: fp16, bf16 and fp32 on edge tiles, partial slices, ranks 1-3, stride, "
      "dilation, padding, bias") {
    using D = Dims;
    const ConvProblem shapes[] = {
        // Problem 84 in miniature: 3x3, no padding; 2 x 2 tiles of 4 rows x 32 columns, the last of each partial.
        depthwise(2, 2, 64, D{{10, 38, 1}}, D{{3, 3, 1}}, D{{1, 1, 1}}, D{{1, 1, 1}}, D{{0, 0, 0}}, D{{0, 0, 0}},
                  false),
        // 72 channels: slices of 8 vectors and 1 (fp16/bf16) or 8, 8 and 2 (fp32); 5x3 kernel, stride
        // 2 x 3, dilation 2 x 1, asymmetric padding, bias.
        depthwise(2, 1, 72, D{{13, 29, 1}}, D{{5, 3, 1}}, D{{2, 3, 1}}, D{{2, 1, 1}}, D{{1, 0, 0}}, D{{2, 2, 0}}, true),
        // 1-D, one vector (fp16) or two (fp32): all 256 threads along one row, past one tile.
        depthwise(1, 2, 8, D{{301, 1, 1}}, D{{7, 1, 1}}, D{{3, 1, 1}}, D{{1, 1, 1}}, D{{2, 0, 0}}, D{{4, 0, 0}}, true),
        // 3-D, 24 channels (slices of 3 vectors: 85 runs a row, 5 threads idle), uneven strides,
        // dilation in depth, padding everywhere.
        depthwise(3, 1, 24, D{{5, 6, 11}}, D{{3, 2, 3}}, D{{1, 2, 1}}, D{{2, 1, 1}}, D{{1, 0, 2}}, D{{0, 1, 1}}, true),
        // A single output pixel from a 1x1 input and kernel, with bias.
        depthwise(2, 3, 16, D{{1, 1, 1}}, D{{1, 1, 1}}, D{{1, 1, 1}}, D{{1, 1, 1}}, D{{0, 0, 0}}, D{{0, 0, 0}}, true),
        // Stride 4 past a kernel of 2 at dilation 3: columns no tap reads; padding wider than a tap on
        // the left.
        depthwise(2, 1, 32, D{{7, 40, 1}}, D{{2, 2, 1}}, D{{1, 4, 1}}, D{{3, 3, 1}}, D{{0, 3, 0}}, D{{3, 1, 0}}, false),
        // Odd sizes: 3 output rows (one tile row of 3), 7x7 kernel centred, 13 columns.
        depthwise(2, 2, 8, D{{3, 13, 1}}, D{{7, 7, 1}}, D{{1, 1, 1}}, D{{1, 1, 1}}, D{{3, 3, 0}}, D{{3, 3, 0}}, true),
    };
    for (std::size_t i = 0; i < std::size(shapes); ++i) {
      CAPTURE(i);
      check_every_dtype(shapes[i], 2460 + 10 * i);
    }
  }

  TEST_CASE("emulated depthwise NHWC: random problems in every dtype") {
    std::mt19937_64 rng(kbench::testing::test_seed(2461));
    const gpu_tests::ShapeLimits limits = gpu_tests::small_shapes();
    for (int trial = 0; trial < 6; ++trial) {
      const int rank = 1 + trial % 3;
      ConvProblem p = gpu_tests::random_problem(rng, OpKind::conv, rank, 1, 1, limits);
      p.in_channels = p.out_channels = p.groups = 8 * pick(rng, 1, 10);
      CAPTURE(trial);
      CAPTURE(p.in_channels);
      check_every_dtype(p, 2500 + 10 * static_cast<std::uint64_t>(trial));
    }
  }
}

}  // namespace kbench
