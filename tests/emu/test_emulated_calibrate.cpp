// The kernel behind `kbench calibrate`'s wgmma rates (wgmma_rate_kernel.cuh), every form (TF32 with
// A in registers or shared memory, fp16, bf16), run on the CPU under the CUDA emulation: a rate is only worth its FLOP count if the
// products it times are the products it claims, so every accumulator of every thread must hold
// exactly (products into its set) x sum_k A(row, k) B(k, col) for its row and column of the tile.
// That checks the operand tiles' layout against their descriptors, the A fragments against wgmma's
// layout, the alternation of the accumulator sets, and that no group is left unfinished.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "calibrate/wgmma_rate_kernel.cuh"
#include "cuda_emu.hpp"

namespace kbench::gpu::calibration {
// The kernel's `extern __shared__` array, as the emulation provides it (one block runs at a time).
alignas(16) unsigned char wgmma_rate_smem[std::max({kWgmmaRateSmemBytes<RegistersA_N96>, kWgmmaRateSmemBytes<SharedA_N256>,
                                                    kWgmmaRateSmemBytes<SharedA_N256_F16>,
                                                    kWgmmaRateSmemBytes<SharedA_N256_BF16>})];
}  // namespace kbench::gpu::calibration

namespace kbench {
namespace {

namespace cal = gpu::calibration;

// Thread `rank` of a warpgroup holds accumulator j at row 16 w + gid + 8 ((j % 4) / 2), column
// 8 (j / 4) + 2 tig + j % 2 (wgmma_ops.cuh).
double expected_accumulator(int rank, int j, int products_per_set, int depth) {
  const int w = rank / 32, gid = rank % 32 / 4, tig = rank % 4;
  const int row = 16 * w + gid + 8 * (j % 4 / 2), col = 8 * (j / 4) + 2 * tig + j % 2;
  double dot = 0;
  for (int k = 0; k < depth; ++k)
    dot += static_cast<double>(cal::wgmma_rate_a(row, k)) * static_cast<double>(cal::wgmma_rate_b(k, col));
  return products_per_set * dot;
}

template <class Form>
void check_form(int groups) {
  const unsigned blocks = 2;
  constexpr int kPerThread = Form::kSets * Form::kAccumulators;
  std::vector<float> result(static_cast<std::size_t>(blocks) * cal::kWgmmaRateThreads * kPerThread, -1.0f);
  emu::launch(emu::Dim3{blocks}, emu::Dim3{static_cast<unsigned>(cal::kWgmmaRateThreads)}, cal::wgmma_rate_smem,
              cal::kWgmmaRateSmemBytes<Form>, [&] { cal::wgmma_rate_kernel<Form>(result.data(), groups); });
  const int products_per_set = groups * cal::kWgmmaRateProductsPerGroup / Form::kSets;
  int wrong = 0;
  for (std::size_t t = 0; t < result.size() / kPerThread; ++t)
    for (int s = 0; s < Form::kSets; ++s)
      for (int j = 0; j < Form::kAccumulators; ++j) {
        const float got = result[t * kPerThread + static_cast<std::size_t>(s * Form::kAccumulators + j)];
        // Dyadic operands, a few products: exact in fp32.
        const double expected = expected_accumulator(static_cast<int>(t % 128), j, products_per_set, Form::kK);
        if (static_cast<double>(got) != expected && wrong++ < 3)
          MESSAGE("N " << Form::kN << ", groups " << groups << ", thread " << t << ", set " << s << ", accumulator "
                       << j << ": got " << got << ", expected " << expected);
      }
  CHECK(wrong == 0);
}

TEST_CASE("emulated wgmma rate kernel: every accumulator holds its products, in every form") {
  for (const int groups : {1, 3}) {
    check_form<cal::RegistersA_N96>(groups);
    check_form<cal::SharedA_N256>(groups);
    check_form<cal::SharedA_N256_F16>(groups);
    check_form<cal::SharedA_N256_BF16>(groups);
  }
}

template <class Form>
void check_tile_offsets(int rows) {
  constexpr std::uint32_t kElement = cal::kWgmmaRateElementBytes<Form>;
  const std::uint32_t bytes = static_cast<std::uint32_t>(rows * Form::kK) * kElement;
  std::vector<int> hits(bytes / kElement, 0);
  for (int k = 0; k < Form::kK; ++k)
    for (int r = 0; r < rows; ++r) {
      const std::uint32_t offset = cal::wgmma_rate_offset<Form>(k, r);
      REQUIRE(offset % kElement == 0);
      REQUIRE(offset < bytes);
      ++hits[offset / kElement];
    }
  CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
}

TEST_CASE("the wgmma rate kernel's operand tiles are filled exactly once, within their bytes") {
  for (const int rows : {cal::kWgmmaRateM, cal::RegistersA_N96::kN, cal::SharedA_N256::kN}) {
    check_tile_offsets<cal::SharedA_N256>(rows);
    check_tile_offsets<cal::SharedA_N256_F16>(rows);
  }
}

}  // namespace
}  // namespace kbench
