// Resident A (igemm_resident_kernel.cuh): the persistent blocks' walk over column tiles, the output
// index of the direct stores, the shared-memory layout, and when the selection picks it.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_resident_index.hpp"
#include "cuda/implicit_gemm/igemm_tile_index.hpp"
#include "cuda/selection.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;
using gpu::conv::Family;
using gpu::conv::KernelChoice;

std::vector<std::string> variant_names(const ConvProblem& p, MathMode math) {
  std::vector<std::string> names;
  for (const KernelChoice& c : gpu::conv::applicable_variants(p, math)) names.push_back(gpu::conv::variant_name(c));
  return names;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("resident A walk: the persistent blocks visit every column tile exactly once") {
    std::mt19937_64 rng(kbench::testing::test_seed(76));
    for (int trial = 0; trial < 300; ++trial) {
      ig::GemmConvParams d;
      d.columns = test::pick(rng, 1, 5000);
      d.chunks = test::pick(rng, 1, 17);
      const std::int64_t bn = 256;
      const std::int64_t all = (d.columns + bn - 1) / bn;
      const std::int64_t blocks = test::pick(rng, 1, all + 3);  // more blocks than tiles too
      std::vector<int> visits(static_cast<std::size_t>(all), 0);
      std::int64_t iterations = 0;
      for (std::int64_t b = 0; b < blocks; ++b) {
        const ig::ResidentWalk w = ig::resident_walk(d, bn, b, blocks);
        CHECK(w.iterations == w.tiles * d.chunks);
        iterations += w.iterations;
        for (std::int64_t t = 0; t < w.tiles; ++t) {
          const std::int64_t tile = ig::resident_tile(b, blocks, t);
          REQUIRE(tile >= 0);
          REQUIRE(tile < all);
          ++visits[static_cast<std::size_t>(tile)];
        }
      }
      CHECK(std::all_of(visits.begin(), visits.end(), [](int v) { return v == 1; }));
      CHECK(iterations == all * d.chunks);
    }
  }

  TEST_CASE("resident A stores: every (row, column) lands where output_state puts it, pairs share an image") {
    std::mt19937_64 rng(kbench::testing::test_seed(77));
    int pair_cases = 0;
    for (int trial = 0; trial < 150; ++trial) {
      const ConvProblem p3 = as_rank3(test::random_problem(rng, OpKind::conv));
      const ig::GemmConvParams d = ig::make_forward_params(p3, ig::KOrder::channel_blocks, 128);
      const std::int64_t bn = test::pick(rng, 1, 4) * 2;  // small even tiles: many straddle images
      const bool pairs = ig::resident_pair_stores(d);
      pair_cases += pairs ? 1 : 0;
      std::set<std::int64_t> written;
      for (std::int64_t g = 0; g < d.groups; ++g)
        for (std::int64_t n0 = 0; n0 < d.columns; n0 += bn) {
          const ig::ColumnOrigin o = ig::column_origin(d, n0);
          for (std::int64_t col = 0; col < bn && n0 + col < d.columns; ++col) {
            const ig::OutputState expected = ig::output_state(d, g, n0 + col);
            for (std::int64_t m = 0; m < d.rows; ++m) {
              const std::int64_t at = ig::resident_output_index(d, g, o, col, m);
              REQUIRE(at == expected.offset + m * d.out_volume);
              written.insert(at);
              if (pairs && col % 2 == 0) {
                REQUIRE(n0 + col + 1 < d.columns);  // columns = batch x V, even
                CHECK(at % 2 == 0);                 // 8-byte aligned
                CHECK(ig::resident_output_index(d, g, o, col + 1, m) == at + 1);
              }
            }
          }
        }
      CHECK(static_cast<std::int64_t>(written.size()) == p3.output_elements());
    }
    CHECK(pair_cases > 20);
  }

  TEST_CASE("resident A epilogue staging: each pass fills 8 rows x 64 columns once, without bank conflicts") {
    using T = ig::Tile128Resident;
    constexpr int kS = T::kStagingStride;
    for (int warp = 0; warp < T::kThreads / 32; ++warp) {
      const int warp_row0 = ig::warp_m_of<T>(warp) * T::kWarpRows;
      const int warp_col0 = ig::warp_n_of<T>(warp) * 64;
      for (int i = 0; i < T::kMFrag; ++i)
        for (int h = 0; h < 2; ++h) {
          std::vector<int> filled(8 * 64, 0);
          for (int nf = 0; nf < 8; ++nf) {
            // One float2 store per lane (as store_tile_staged writes it); 8-byte accesses go by half-warp.
            for (int half = 0; half < 2; ++half) {
              std::set<int> banks;
              for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
                const ig::TileCoord at = ig::mma_c_coord<T>(warp, lane, i, nf, 2 * h);
                const int row = at.row - warp_row0 - 16 * i - 8 * h, col = at.col - warp_col0;
                REQUIRE(row >= 0);
                REQUIRE(row < 8);
                REQUIRE(col % 2 == 0);
                ++filled[static_cast<std::size_t>(row * 64 + col)];
                ++filled[static_cast<std::size_t>(row * 64 + col + 1)];
                banks.insert((row * kS + col) % 32);
                banks.insert((row * kS + col + 1) % 32);
              }
              CHECK(banks.size() == 32);
            }
          }
          CHECK(std::all_of(filled.begin(), filled.end(), [](int f) { return f == 1; }));
        }
    }
    // The read-out: lane reads columns 2 lane, 2 lane + 1 of row r: consecutive words.
    for (int r = 0; r < 8; ++r)
      for (int half = 0; half < 2; ++half) {
        std::set<int> banks;
        for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
          banks.insert((r * kS + 2 * lane) % 32);
          banks.insert((r * kS + 2 * lane + 1) % 32);
        }
        CHECK(banks.size() == 32);
      }
  }

  TEST_CASE("resident A: problem 76 takes it by default in both maths, its shared memory and grid") {
    const ConvProblem p3 = as_rank3(testing::headline76());
    const ig::GemmConvParams d = gpu::conv::forward_gemm_params(p3, KernelChoice{Family::implicit_gemm_tf32});
    CHECK(gpu::conv::forward_gemm_params(p3, KernelChoice{Family::implicit_gemm_3xtf32}).a_schedule ==
          ig::ASchedule::resident);
    CHECK(gpu::conv::forward_gemm_params(p3, KernelChoice{Family::implicit_gemm_ffma}).a_schedule ==
          ig::ASchedule::streamed);  // FFMA is bound by its FMAs, not by A
    CHECK(d.order == ig::KOrder::channel_blocks);
    CHECK(d.a_schedule == ig::ASchedule::resident);
    CHECK(ig::choose_tile(d) == ig::TileKind::m128_resident);
    const ig::SmemLayout s = ig::smem_layout(d);
    CHECK(s.resident_a_bytes == 12 * 16 * (128 + 8) * 4);  // 12 chunks of 16 rows of 128 (+8 padding) floats
    // Five B stages of 16 rows of 256 (+8) floats, and 8 staging rows of 72 floats for each of 16 warps.
    CHECK(s.total_bytes == s.prefix_bytes + s.resident_a_bytes + 5 * 16 * (256 + 8) * 4 + 16 * 8 * 72 * 4);
    CHECK(s.total_bytes <= ig::kMaxSmemBytes);
    CHECK(s.total_bytes > ig::kMaxSmemBytes / 2);  // one block per SM: the launch runs one per SM
    CHECK(ig::a_layout_for(d, ig::GemmMath::tf32) == ig::ALayout::mma_fragments);

    ig::GemmConvParams launched = d;
    CHECK(ig::gemm_grid(launched).x == 43690);  // resident_blocks unset: one block per tile, still correct
    launched.resident_blocks = 132;
    CHECK(ig::gemm_grid(launched).x == 132);
    CHECK(ig::gemm_grid(launched).y == 1);
    CHECK(ig::resident_walk(launched, 256, 0, 132).tiles == 331);
    CHECK(ig::resident_walk(launched, 256, 131, 132).tiles == 330);

    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      const std::vector<std::string> names = variant_names(testing::headline76(), math);
      const std::string gemm = math == MathMode::tf32 ? "implicit_gemm_tf32" : "implicit_gemm_3xtf32";
      CHECK(contains(names, gemm));                  // resident, the default
      CHECK(contains(names, gemm + "/streamed_a"));  // the former default, for comparison
      CHECK(contains(names, "implicit_gemm_ffma"));  // streamed: no FFMA resident variant
      CHECK_FALSE(contains(names, "implicit_gemm_ffma/resident_a"));
      CHECK(contains(names, gemm + "/k_table"));
      CHECK_FALSE(contains(names, gemm + "/k_table/resident_a"));  // resident A is channel_blocks only
    }
  }

  TEST_CASE("resident A: where it does not apply, and the variants that force it") {
    // Seeds 50 (input_patch, 96 rows) and 77 (transposed phases) keep A streamed.
    const KernelChoice tf32{Family::implicit_gemm_tf32};
    const KernelChoice forced{.family = Family::implicit_gemm_tf32, .schedule = ig::ASchedule::resident};
    CHECK(gpu::conv::forward_gemm_params(as_rank3(testing::headline50()), tf32).a_schedule ==
          ig::ASchedule::streamed);
    CHECK_FALSE(gpu::conv::choice_envelope(
        KernelChoice{.family = Family::implicit_gemm_tf32, .schedule = ig::ASchedule::resident}, testing::headline50(),
        MathMode::tf32));
    CHECK_FALSE(gpu::conv::choice_envelope(
        KernelChoice{.family = Family::transposed_phase_tf32, .schedule = ig::ASchedule::resident}, testing::headline77(),
        MathMode::tf32));

    ConvProblem p = testing::headline76();
    p.out_channels = 96;  // the 96-row tile
    const ConvProblem p3 = as_rank3(p);
    CHECK(gpu::conv::forward_gemm_params(p3, tf32).a_schedule == ig::ASchedule::streamed);
    const gpu::conv::ForwardGemm rows = gpu::conv::forward_gemm(p3, forced);
    CHECK(rows.support.reason.find("more than 96 output channels") != std::string::npos);

    p = testing::headline76();
    p.kernel[0] = 7;  // 28 chunks of A: 244 KB alone
    const gpu::conv::ForwardGemm big = gpu::conv::forward_gemm(as_rank3(p), forced);
    CHECK(big.support.reason.find("shared memory") != std::string::npos);
    CHECK(gpu::conv::forward_gemm_params(as_rank3(p), tf32).a_schedule == ig::ASchedule::streamed);

    // A small GEMM (2 column tiles) streams A by default; the variant forces resident A.
    p = testing::headline76();
    p.batch = 1;
    p.input[0] = 1500;
    CHECK(gpu::conv::forward_gemm_params(as_rank3(p), tf32).a_schedule == ig::ASchedule::streamed);
    CHECK(contains(variant_names(p, MathMode::tf32), "implicit_gemm_tf32/resident_a"));
    CHECK(gpu::conv::forward_gemm_params(as_rank3(p), forced).a_schedule == ig::ASchedule::resident);
    const Support ffma = gpu::conv::choice_envelope(
        KernelChoice{.family = Family::implicit_gemm_ffma, .schedule = ig::ASchedule::resident}, p, MathMode::fp32);
    CHECK_FALSE(ffma);
    CHECK(ffma.reason.find("tensor-core maths only") != std::string::npos);
  }

  TEST_CASE("variant names with an order and a schedule round-trip, malformed ones are refused") {
    for (const ConvProblem& p : {testing::headline50(), testing::headline76(), testing::headline77(), testing::headline84()})
      for (const MathMode math : {MathMode::fp32, MathMode::tf32})
        for (const KernelChoice& c : gpu::conv::applicable_variants(p, math)) {
          const std::optional<KernelChoice> back = gpu::conv::parse_variant(gpu::conv::variant_name(c));
          REQUIRE(back.has_value());
          CHECK(back->family == c.family);
          CHECK(back->order == c.order);
          CHECK(back->schedule == c.schedule);
          CHECK(back->stores == c.stores);
          CHECK(back->fill == c.fill);
        }
    const std::optional<KernelChoice> both = gpu::conv::parse_variant("implicit_gemm_tf32/channel_blocks/resident_a");
    REQUIRE(both.has_value());
    CHECK(both->order == ig::KOrder::channel_blocks);
    CHECK(both->schedule == ig::ASchedule::resident);
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/resident_a/channel_blocks"));  // order first
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/resident_a/streamed_a"));
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/k_table/input_patch"));
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/"));
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/resident"));
    const Support direct = gpu::conv::choice_envelope(
        KernelChoice{.family = Family::direct, .schedule = ig::ASchedule::resident}, testing::headline76(), MathMode::fp32);
    CHECK_FALSE(direct);
    CHECK(direct.reason.find("A schedule") != std::string::npos);
  }

}  // TEST_SUITE

}  // namespace kbench
