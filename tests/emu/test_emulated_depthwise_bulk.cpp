// The bulk-copy depthwise kernel (depthwise2d_bulk_kernel.cuh) run on the CPU under the CUDA
// emulation, against the fp64 reference: random problems of its envelope (kernel 3, 5 and 7, every
// padding, strip and plane edges, narrow planes whose columns several threads share, rows too wide
// for four blocks an SM) and problem 84 in miniature, each in both schedules (one stage, a block per
// strip; two stages, on a few persistent blocks). Then the emulation's checks of the bulk-copy
// protocol, each shown to fail a kernel that breaks it, so that the kernel's passing means something.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuda/depthwise/depthwise2d_bulk_kernel.cuh"
#include "cuda/selection.hpp"
#include "emulated_run.hpp"
#include "problem_factory.hpp"
#include "problem/problem_validation.hpp"
#include "test_seed.hpp"

// The kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
namespace kbench::gpu::conv::depthwise {
alignas(16) unsigned char bulk_smem[kBulkHeaderBytes + kBulkMaxStages * kBulkStageMax];
}

namespace kbench {
namespace {

namespace dw = gpu::conv::depthwise;
using gpu::conv::Family;
using gpu::conv::KernelChoice;
using gpu_tests::pick;

const KernelChoice kBulk{Family::depthwise2d, std::nullopt, std::nullopt, dw::StoreMode::bulk};

// Runs the kernel with store mode `mode` over `blocks` blocks (0: the one-stage launch, a block per
// strip); returns the tiling, for the caller's coverage.
dw::BulkParams check_bulk(const ConvProblem& p, std::uint64_t seed, dw::StoreMode mode = dw::StoreMode::bulk,
                          std::int64_t blocks = 0) {
  const KernelChoice choice{.family = Family::depthwise2d, .stores = mode};
  REQUIRE(gpu::conv::choice_envelope(choice, p, MathMode::fp32).ok);
  const dw::BulkParams t = gpu::conv::depthwise_bulk_params(p, mode).tiling;
  REQUIRE(t.smem_bytes() <= static_cast<std::int64_t>(sizeof dw::bulk_smem));
  const std::int64_t grid = blocks > 0 ? std::min(blocks, t.total_strips()) : t.total_strips();
  CAPTURE(dw::store_mode_name(mode));
  CAPTURE(grid);
  emu_tests::run_and_compare(
      p, seed, static_cast<unsigned>(grid), dw::kBulkThreads,
      [&](const data::HostTensors& tensors, float* y) {
        const float* bias = tensors.bias.empty() ? nullptr : tensors.bias.data();
        dw::with_bulk_instance(t, [&](auto k, auto stages) {
          dw::depthwise2d_bulk_kernel<decltype(k)::value, decltype(stages)::value>(t, tensors.input.data(),
                                                                                   tensors.weight.data(), bias, y);
        });
      },
      true, dw::bulk_smem, static_cast<std::size_t>(t.smem_bytes()));
  return t;
}

// A random depthwise 3x3, 5x5 or 7x7 in the bulk kernel's envelope: rows of 4 to 140 floats, up to
// 70 of them (past two strips), any top, bottom and right padding below the kernel, left 0 or centred.
ConvProblem random_bulk_problem(std::mt19937_64& rng, std::int64_t k) {
  for (;;) {
    ConvProblem p;
    p.spatial_rank = 2;
    p.batch = pick(rng, 1, 2);
    p.in_channels = p.out_channels = p.groups = pick(rng, 1, 3);
    p.bias = pick(rng, 0, 1) == 1;
    p.kernel = Dims{{k, k, 1}};
    p.pad_before = Dims{{pick(rng, 0, k - 1), pick(rng, 0, 1) * (k - 1) / 2, 0}};
    p.pad_after = Dims{{pick(rng, 0, k - 1), pick(rng, 0, k - 1), 0}};
    p.input = Dims{{pick(rng, 1, 70), 4 * pick(rng, 1, 35), 1}};
    if (validate_problem(p).ok && gpu::conv::choice_envelope(kBulk, p, MathMode::fp32).ok) return p;
  }
}

// Device code of the protocol checks below: `bytes` of `src` into shared memory and back out to
// `dst`, with each step of the protocol that `skip` does not leave out.
enum class Skip { nothing, fence, wait_read, expected_bytes };

void copy_through_shared(const float* src, float* dst, unsigned bytes, unsigned expected, Skip skip) {
  namespace conv = gpu::conv;
  auto* barrier = reinterpret_cast<std::uint64_t*>(dw::bulk_smem);
  float* buffer = reinterpret_cast<float*>(dw::bulk_smem + dw::kBulkHeaderBytes);
  if (threadIdx.x == 0) conv::mbarrier_init(barrier, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    conv::mbarrier_arrive_expect_tx(barrier, expected);
    conv::bulk_copy_to_shared(buffer, src, bytes, barrier);
  }
  conv::mbarrier_wait(barrier, 0);
  if (skip != Skip::fence) conv::fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) {
    conv::bulk_copy_to_global(dst, buffer, bytes);
    conv::bulk_commit();
    if (skip != Skip::wait_read) conv::bulk_wait_read<0>();
  }
}

void run_copy(Skip skip, unsigned bytes, unsigned expected, std::size_t src_offset = 0) {
  std::vector<float> src(64, 1.5f), dst(64, 0.0f);
  emu::clear_buffers();
  emu::allow_read(src.data(), src.size() * sizeof(float));
  emu::allow_write(dst.data(), dst.size() * sizeof(float));
  emu::launch(emu::Dim3{1}, emu::Dim3{64}, dw::bulk_smem, 1024,
              [&] { copy_through_shared(src.data() + src_offset, dst.data(), bytes, expected, skip); });
  CHECK(dst[bytes / sizeof(float) - 1] == 1.5f);
  CHECK(emu::write_counts(dst.data())[0] == 1);
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated bulk-copy depthwise kernel: random problems of every instance, paddings, strip and plane edges") {
    std::mt19937_64 rng(kbench::testing::test_seed(8402));
    int trials = 0, padded_rows = 0, margins = 0, shared_columns = 0, strips = 0;
    for (const std::int64_t k : {3, 5, 7})
      for (int i = 0; i < 8; ++i) {
        const ConvProblem p = random_bulk_problem(rng, k);
        CAPTURE(k);
        CAPTURE(trials);
        const std::uint64_t seed = 8400 + static_cast<std::uint64_t>(++trials);
        const dw::BulkParams t = check_bulk(p, seed);
        // Pipelined: persistent blocks, one to three, walking the strips two stages deep.
        check_bulk(p, seed, dw::StoreMode::bulk_pipelined, 1 + i % 3);
        padded_rows += p.pad_before[0] > 0 ? 1 : 0;
        margins += t.pitch > t.in_w ? 1 : 0;
        shared_columns += t.segments > 1 ? 1 : 0;
        strips += t.strips > 1 ? 1 : 0;
      }
    // What the draws must have reached for the test to mean something.
    CHECK(padded_rows > 0);
    CHECK(margins > 0);
    CHECK(shared_columns > 0);
    CHECK(strips > 0);
  }

  TEST_CASE("emulated bulk-copy depthwise kernel: problem 84 in miniature, and rows too wide for the four-block target") {
    // Problem 84's rows: 512 floats in, 510 out (strips of an even number of rows), three planes.
    const ConvProblem s84 =
        ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 3, .out_channels = 3, .groups = 3,
                    .input = Dims{{40, 512, 1}}, .kernel = Dims{{3, 3, 1}}};
    const dw::BulkParams t84 = check_bulk(s84, 84);
    CHECK(t84.strip_rows % 2 == 0);
    CHECK(t84.strips > 1);
    CHECK(t84.stage_bytes() <= dw::kBulkStageTarget);
    check_bulk(s84, 84, dw::StoreMode::bulk_pipelined, 5);  // 12 strips on 5 blocks: 3, 3, 2, 2, 2 each
    // Rows of 3,000 floats: two rows a strip need 72 KB, past the 55 KB target (two blocks an SM).
    ConvProblem wide = s84;
    wide.in_channels = wide.out_channels = wide.groups = 1;
    wide.bias = true;
    wide.input = Dims{{8, 3000, 1}};  // out 8 x 2,998: rows of 2 mod 4 floats, strips of 2
    wide.pad_before = wide.pad_after = Dims{{1, 0, 0}};
    const dw::BulkParams tw = check_bulk(wide, 85);
    CHECK(tw.strip_rows == 2);
    CHECK(tw.stage_bytes() > dw::kBulkStageTarget);
    check_bulk(wide, 85, dw::StoreMode::bulk_pipelined, 2);
  }

  TEST_CASE("emulated bulk copies: the protocol's checks fail a kernel that breaks it") {
    run_copy(Skip::nothing, 256, 256);  // the protocol followed: the data goes through
    CHECK_THROWS_AS(run_copy(Skip::fence, 256, 256), emu::EmulationError);
    CHECK_THROWS_AS(run_copy(Skip::wait_read, 256, 256), emu::EmulationError);
    CHECK_THROWS_AS(run_copy(Skip::expected_bytes, 256, 512), emu::EmulationError);  // never completes
    CHECK_THROWS_AS(run_copy(Skip::expected_bytes, 256, 128), emu::EmulationError);  // more than expected
    CHECK_THROWS_AS(run_copy(Skip::nothing, 200, 200), emu::EmulationError);         // not 16-byte sized
    CHECK_THROWS_AS(run_copy(Skip::nothing, 128, 128, 1), emu::EmulationError);      // not 16-byte aligned
  }

}  // TEST_SUITE
}  // namespace kbench
