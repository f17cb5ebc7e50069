// The kernel behind `kbench calibrate`'s TF32 wgmma rates (tf32_wgmma_rate_kernel.cuh), both its
// forms, run on the CPU under the CUDA emulation: a rate is only worth its FLOP count if the
// products it times are the products it claims, so every accumulator of every thread must hold
// exactly (products into its set) x sum_k A(row, k) B(k, col) for its row and column of the tile.
// That checks the operand tiles' layout against their descriptors, the A fragments against wgmma's
// layout, the alternation of the accumulator sets, and that no group is left unfinished.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "calibrate/tf32_wgmma_rate_kernel.cuh"
#include "cuda_emu.hpp"

namespace kbench::gpu::calibration {
// The kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
alignas(
    16) unsigned char wgmma_rate_smem[std::max(kWgmmaRateSmemBytes<RegistersA_N96>, kWgmmaRateSmemBytes<SharedA_N256>)];
}  // namespace kbench::gpu::calibration

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

template <class Form>
void check_form(int groups) {
  const unsigned blocks = 2;
  constexpr int kPerThread = Form::kSets * Form::kAccumulators;
  std::vector<float> result(static_cast<std::size_t>(blocks) * cal::kWgmmaRateThreads * kPerThread, -1.0f);
  emu::launch(emu::Dim3{blocks}, emu::Dim3{static_cast<unsigned>(cal::kWgmmaRateThreads)}, cal::wgmma_rate_smem,
              cal::kWgmmaRateSmemBytes<Form>, [&] { cal::tf32_wgmma_rate_kernel<Form>(result.data(), groups); });
  const int products_per_set = groups * cal::kWgmmaRateProductsPerGroup / Form::kSets;
  int wrong = 0;
  for (std::size_t t = 0; t < result.size() / kPerThread; ++t)
    for (int s = 0; s < Form::kSets; ++s)
      for (int j = 0; j < Form::kAccumulators; ++j) {
        const float got = result[t * kPerThread + static_cast<std::size_t>(s * Form::kAccumulators + j)];
        // Dyadic operands, a few products: exact in fp32.
        const double expected = expected_accumulator(static_cast<int>(t % 128), j, products_per_set);
        if (static_cast<double>(got) != expected && wrong++ < 3)
          MESSAGE("N " << Form::kN << ", groups " << groups << ", thread " << t << ", set " << s << ", accumulator "
                       << j << ": got " << got << ", expected " << expected);
      }
  CHECK(wrong == 0);
}

TEST_CASE("emulated TF32 wgmma rate kernel: every accumulator holds its products, in both forms") {
  for (const int groups : {1, 3}) {
    check_form<cal::RegistersA_N96>(groups);
    check_form<cal::SharedA_N256>(groups);
  }
}

TEST_CASE("the TF32 wgmma rate kernel's operand tiles are filled exactly once, within their bytes") {
  for (const int rows : {cal::kWgmmaRateM, cal::RegistersA_N96::kN, cal::SharedA_N256::kN}) {
    const std::uint32_t bytes = static_cast<std::uint32_t>(rows * cal::kWgmmaRateK * 4);
    std::vector<int> hits(bytes / 4, 0);
    for (int k = 0; k < cal::kWgmmaRateK; ++k)
      for (int r = 0; r < rows; ++r) {
        const std::uint32_t offset = cal::wgmma_rate_offset(k, r);
        REQUIRE(offset % 4 == 0);
        REQUIRE(offset < bytes);
        ++hits[offset / 4];
      }
    CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
  }
}

}  // namespace
}  // namespace kbench
