// The input_patch order of the implicit GEMM (igemm_patch_index.hpp), against the gathered B that
// the other tests check against brute force: the patch is loaded on the CPU exactly as the kernel's
// loader does it, and every (k, column) the math loop reads must hold B[k][n] (or zero in padding).
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm_patch_index.hpp"
#include "cuda/selection.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;
using gpu::conv::Family;
using gpu::conv::KernelChoice;

// A random 1-D or 2-D forward problem whose input rows are a multiple of 4 floats.
ConvProblem patch_problem(std::mt19937_64& rng) {
  for (;;) {
    ConvProblem p = test::random_problem(rng, OpKind::conv, static_cast<int>(test::pick(rng, 1, 2)));
    p.input[p.spatial_rank - 1] = 4 * test::pick(rng, 1, 4);
    if (validate_problem(p).ok) return p;
  }
}

struct Counts {
  std::int64_t reads = 0;
  std::int64_t padding_reads = 0;
  std::int64_t columns = 0;
};

// Loads every patch of descriptor d like load_patch<T> (values: input index + 1, 0 for zeros), then
// checks every read of the math loop against b_source. `bn` plays the block's column count.
void check_patch(const ConvProblem& p3, const ig::GemmConvParams& d, const std::vector<ig::GemmTap>& taps, int bn,
                 Counts& counts) {
  const std::vector<std::int32_t> koffs = ig::make_patch_koffs(d, taps);
  REQUIRE(static_cast<std::int64_t>(koffs.size()) == d.chunks * ig::kChunkRows);
  REQUIRE(d.patch.stride % 4 == 0);
  REQUIRE(d.patch.data_col % 4 == 0);
  REQUIRE(d.patch.floats == d.cin_per_group * d.patch.channel_floats);
  const std::int64_t input_elements = p3.input_elements();
  std::set<std::int64_t> columns_seen;
  for (std::int64_t g = 0; g < d.groups; ++g)
    for (std::int64_t block = 0; block < d.batch * d.patch.tiles_per_image; ++block) {
      const ig::PatchTile tile = ig::patch_tile(d, block, bn);
      std::vector<std::int64_t> patch(static_cast<std::size_t>(d.patch.floats), -7);  // -7: never written
      const int vectors_per_row = d.patch.stride / 4;
      for (int i = 0; i < d.patch.floats / 4; ++i) {
        const std::int64_t src = ig::patch_vector_source(d, tile, g, i / vectors_per_row, i % vectors_per_row);
        if (src >= 0) {
          REQUIRE(src % 4 == 0);  // 16-byte aligned source
          REQUIRE(src + 3 < input_elements);
        }
        for (int e = 0; e < 4; ++e) patch[static_cast<std::size_t>(4 * i + e)] = src >= 0 ? src + e + 1 : 0;
      }
      for (int n_local = 0; n_local < bn; ++n_local) {
        const ig::PatchColumn pc = ig::patch_column(d, tile, n_local, bn);
        if (!pc.valid) {
          CHECK(pc.n == d.columns);
          continue;
        }
        if (g == 0) {
          CHECK(columns_seen.insert(pc.n).second);  // each GEMM column in exactly one tile
        }
        ++counts.columns;
        const ig::ColumnState cs = ig::column_state(d, g, pc.n);
        REQUIRE(cs.valid);
        for (std::int64_t k = 0; k < d.chunks * ig::kChunkRows; ++k) {
          const std::int64_t cell = static_cast<std::int64_t>(koffs[static_cast<std::size_t>(k)]) + pc.noff;
          REQUIRE(cell >= 0);
          REQUIRE(cell < d.patch.floats);  // reads stay inside the patch, padding rows of the reduction too
          if (k >= d.cin_per_group * d.taps) continue;  // masked in the kernel's last chunk
          const std::int64_t expected = ig::b_source(d, cs, taps[static_cast<std::size_t>(k % d.taps)], k / d.taps);
          const std::int64_t got = patch[static_cast<std::size_t>(cell)];
          INFO("group " << g << " block " << block << " column " << n_local << " k " << k);
          REQUIRE(got == expected + 1);  // expected -1 (padding) reads a zero
          ++counts.reads;
          if (expected < 0) ++counts.padding_reads;
        }
      }
    }
  CHECK(static_cast<std::int64_t>(columns_seen.size()) == d.columns);
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("input_patch: every B element the math loop reads is the gathered one, for random 1-D/2-D problems") {
    std::mt19937_64 rng(kbench::testing::test_seed(5050));
    Counts counts;
    int tiled = 0;
    for (int trial = 0; trial < 150; ++trial) {
      const ConvProblem p3 = as_rank3(patch_problem(rng));
      const std::vector<ig::GemmTap> taps = ig::forward_taps(p3);
      ig::GemmConvParams d = ig::make_forward_params(p3, ig::KOrder::input_patch, 32);
      for (const int bn : {4, 7, 16, 128}) {
        const ig::PatchParamsFit tiling = ig::make_patch_params(d, taps, bn);
        REQUIRE_MESSAGE(tiling.support.ok, tiling.support.reason);
        d.patch = tiling.desc;
        check_patch(p3, d, taps, bn, counts);
        ++tiled;
      }
    }
    CHECK(tiled == 600);
    CHECK(counts.reads > 100000);
    CHECK(counts.padding_reads > 1000);
    CHECK(counts.columns > 10000);
  }

  TEST_CASE("input_patch: problem 50's geometry") {
    const ConvProblem p3 = as_rank3(testing::headline50());
    const gpu::conv::ForwardGemm g = gpu::conv::forward_gemm_ordered(p3);
    REQUIRE(g.support.ok);
    const ig::GemmConvParams& d = g.desc;
    CHECK(d.order == ig::KOrder::input_patch);  // the default for problem 50
    CHECK(d.patch.tiles_per_image == 12);       // 3025 positions in tiles of 256
    CHECK(d.patch.image_columns == 55 * 55);
    CHECK(d.patch.rows == 31);          // 6 output rows x stride 4 + 11 - 4
    CHECK(d.patch.data_col == 4);       // 2 columns of left padding, rounded up for 16-byte copies
    CHECK(d.patch.stride == 232);       // 4 + 224 + 2 right padding, rounded up to 4
    CHECK(d.patch.load_vectors == 56);  // whole input rows
    CHECK(d.patch.floats == 3 * 31 * 232);
    CHECK(d.chunks == 23);
    CHECK(ig::choose_tile(d.rows, d.order) == ig::TileKind::m96_wide);
    // Two blocks per SM (the same layout serves every math: A is one plane).
    const ig::SmemLayout layout = ig::smem_layout(d);
    CHECK(layout.total_bytes <= ig::kMaxSmemBytes / 2);
    CHECK(layout.patch_bytes == 3 * 31 * 232 * 4);
    // The whole patch of the first tile of image 0: rows -2 .. 28 (two padding rows on top).
    const ig::PatchTile first = ig::patch_tile(d, 0, 256);
    CHECK(first.first_in_row == -2);
    CHECK(ig::patch_row_source(d, first, 0, 0, 0) == -1);
    CHECK(ig::patch_row_source(d, first, 0, 0, 2) == 0);
    // Tile 11 of image 1 (positions 2816 .. 3024, the last 209 of the image) starts at output row 51.
    const ig::PatchTile last = ig::patch_tile(d, 12 + 11, 256);
    CHECK(last.image == 1);
    CHECK(last.first_out_row == 51);
    CHECK(ig::patch_column(d, last, 208, 256).valid);
    CHECK_FALSE(ig::patch_column(d, last, 209, 256).valid);
  }

  TEST_CASE("input_patch: envelope") {
    std::mt19937_64 rng(kbench::testing::test_seed(7));
    // 3-D problems, and rows that are not a multiple of 4 floats, are refused with a reason.
    ConvProblem p;
    do {  // the random stride, dilation and padding must still leave the small input an output
      p = test::random_problem(rng, OpKind::conv, 3);
      p.input = Dims{{3, 4, 8}};
      p.kernel = Dims{{2, 1, 1}};
    } while (!validate_problem(p));
    ConvProblem p3 = as_rank3(p);
    CHECK(ig::make_patch_params(ig::make_forward_params(p3, ig::KOrder::input_patch, 32), ig::forward_taps(p3), 128)
              .support.reason.find("1-D and 2-D") != std::string::npos);
    ConvProblem odd = testing::headline50();
    odd.input = Dims{{224, 222, 1}};
    p3 = as_rank3(odd);
    CHECK_FALSE(gpu::conv::forward_gemm_ordered(p3, ig::KOrder::input_patch).support.ok);
    CHECK(gpu::conv::forward_gemm_ordered(p3).desc.order == ig::KOrder::k_table);  // the default falls back
    // A long 1-D row with few channels: the patch would copy the whole row for 128 outputs, so the
    // default stays k_table; forced, it runs.
    ConvProblem long_row;
    long_row.spatial_rank = 1;
    long_row.batch = 2;
    long_row.in_channels = 3;
    long_row.out_channels = 32;
    long_row.input = Dims{{4096, 1, 1}};
    long_row.kernel = Dims{{3, 1, 1}};
    p3 = as_rank3(long_row);
    CHECK(gpu::conv::forward_gemm_ordered(p3).desc.order == ig::KOrder::k_table);
    CHECK(gpu::conv::forward_gemm_ordered(p3, ig::KOrder::input_patch).support.ok);
    // Many channels: channel blocks stay the default, the patch is only a forced variant.
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(testing::headline76())).desc.order ==
          ig::KOrder::channel_blocks);
  }

  TEST_CASE("variants name a family and optionally a reduction order") {
    const auto parsed = gpu::conv::parse_variant("implicit_gemm_tf32/k_table");
    REQUIRE(parsed);
    CHECK(parsed->family == Family::implicit_gemm_tf32);
    CHECK(parsed->order == ig::KOrder::k_table);
    CHECK(gpu::conv::variant_name(*parsed) == "implicit_gemm_tf32/k_table");
    CHECK(gpu::conv::parse_variant("direct")->family == Family::direct);
    CHECK_FALSE(gpu::conv::parse_variant("direct")->order);
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/bogus"));
    CHECK_FALSE(gpu::conv::parse_variant("bogus/k_table"));
    CHECK_FALSE(gpu::conv::parse_variant("implicit_gemm_tf32/"));

    const ConvProblem s50 = testing::headline50();
    CHECK_FALSE(gpu::conv::choice_envelope(KernelChoice{.family = Family::direct, .order = ig::KOrder::k_table}, s50,
                                           MathMode::tf32));
    CHECK(gpu::conv::choice_envelope(KernelChoice{.family = Family::implicit_gemm_tf32, .order = ig::KOrder::k_table},
                                     s50, MathMode::tf32));
    std::set<std::string> names;
    for (const KernelChoice& c : gpu::conv::applicable_variants(s50, MathMode::tf32))
      names.insert(gpu::conv::variant_name(c));
    CHECK(names.count("implicit_gemm_tf32") == 1);  // input_patch, the default
    CHECK(names.count("implicit_gemm_tf32/k_table") == 1);
    CHECK(names.count("implicit_gemm_tf32/channel_blocks") == 1);
    CHECK(names.count("implicit_gemm_tf32/input_patch") == 0);  // the default is not listed twice
    CHECK(names.count("implicit_gemm_3xtf32/k_table") == 1);
    CHECK(names.count("direct") == 1);
  }

}  // TEST_SUITE

}  // namespace kbench
