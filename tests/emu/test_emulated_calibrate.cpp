// The kernel behind `kbench calibrate`'s TF32 wgmma rate (tf32_wgmma_rate_kernel.cuh), run on the
// CPU under the CUDA emulation: a rate is only worth its FLOP count if the products it times are the
// products it claims, so every accumulator of every thread must hold exactly
// (products into its set) x sum_k A(row, k) B(k, col) for its row and column of the 64 x 96 tile.
// That checks the B tile's layout against its descriptor, the A fragments against wgmma's layout,
// the alternation of the two accumulator sets, and that no group is left unfinished.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "calibrate/tf32_wgmma_rate_kernel.cuh"
#include "cuda_emu.hpp"

// The kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
namespace kbench::gpu::calibration {
alignas(16) unsigned char wgmma_rate_smem[kWgmmaRateBBytes];
}

namespace kbench {
namespace {

namespace cal = gpu::calibration;

// Thread `rank` of a warpgroup holds accumulator j at row 16 w + gid + 8 ((j % 4) / 2), column
// 8 (j / 4) + 2 tig + j % 2 (wgmma_ops.cuh).
double expected_accumulator(int rank, int j, int products_per_set) {
  const int w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
  const int row = 16 * w + gid + 8 * (j % 4 / 2), col = 8 * (j / 4) + 2 * tig + j % 2;
  double dot = 0;
  for (int k = 0; k < cal::kWgmmaRateK; ++k)
    dot += static_cast<double>(cal::wgmma_rate_a(row, k)) * static_cast<double>(cal::wgmma_rate_b(k, col));
  return products_per_set * dot;
}

TEST_CASE("emulated TF32 wgmma rate kernel: every accumulator holds its products") {
  for (const int groups : {1, 3}) {
    const unsigned blocks = 2;
    constexpr int kPerThread = cal::kWgmmaRateAccumulatorSets * cal::kWgmmaRateAccumulators;
    std::vector<float> result(static_cast<std::size_t>(blocks) * cal::kWgmmaRateThreads * kPerThread, -1.0f);
    emu::launch(emu::Dim3{blocks}, emu::Dim3{static_cast<unsigned>(cal::kWgmmaRateThreads)}, cal::wgmma_rate_smem,
                sizeof cal::wgmma_rate_smem, [&] { cal::tf32_wgmma_rate_kernel(result.data(), groups); });
    const int products_per_set = groups * cal::kWgmmaRateProductsPerGroup / cal::kWgmmaRateAccumulatorSets;
    int wrong = 0;
    for (std::size_t t = 0; t < result.size() / kPerThread; ++t)
      for (int s = 0; s < cal::kWgmmaRateAccumulatorSets; ++s)
        for (int j = 0; j < cal::kWgmmaRateAccumulators; ++j) {
          const float got = result[t * kPerThread + static_cast<std::size_t>(s * cal::kWgmmaRateAccumulators + j)];
          // Dyadic operands, a few products: exact in fp32.
          const double expected = expected_accumulator(static_cast<int>(t % 128), j, products_per_set);
          if (static_cast<double>(got) != expected && wrong++ < 3)
            MESSAGE("groups " << groups << ", thread " << t << ", set " << s << ", accumulator " << j << ": got " << got
                              << ", expected " << expected);
        }
    CHECK(wrong == 0);
  }
}

TEST_CASE("the TF32 wgmma rate kernel's B tile fills its 3,072 bytes exactly once") {
  std::vector<int> hits(cal::kWgmmaRateBBytes / 4, 0);
  for (int k = 0; k < cal::kWgmmaRateK; ++k)
    for (int n = 0; n < cal::kWgmmaRateN; ++n) {
      const std::uint32_t offset = cal::wgmma_rate_b_offset(k, n);
      REQUIRE(offset % 4 == 0);
      REQUIRE(offset < cal::kWgmmaRateBBytes);
      ++hits[offset / 4];
    }
  for (const int h : hits) CHECK(h == 1);
}

}  // namespace
}  // namespace kbench
