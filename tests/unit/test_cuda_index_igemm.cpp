// Implicit-GEMM index arithmetic (forward convolutions and the phase GEMMs of transposed ones) and the
// zero fill of untapped outputs, against brute force: every output written exactly once, and each
// computed output sums exactly the (input, weight) pairs that feed it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/transposed/phase_gemm_index.hpp"
#include "cuda/transposed/zero_fill_index.hpp"
#include "cuda/selection.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace ig = gpu::conv::igemm;

struct Tally {
  std::vector<int> hits;
  std::int64_t computed = 0;
  std::int64_t bias_only = 0;  // written without computing
  std::int64_t pairs = 0;
};

// The (input, weight) pairs the GEMM sums for row m of column n, walking the reduction as the kernel does.
std::vector<test::Pair> gemm_pairs(const ig::GemmConvParams& d, const std::vector<ig::GemmTap>& taps,
                                   const std::vector<ig::KEntry>& table, std::int64_t g, std::int64_t n,
                                   std::int64_t m) {
  const ig::ColumnState cs = ig::column_state(d, g, n);
  std::vector<test::Pair> pairs;
  for (std::int64_t j = 0; j < d.chunks; ++j)
    for (std::int64_t r = 0; r < ig::kChunkRows; ++r) {
      const ig::ReductionSlot slot = ig::reduction_slot(d, j, r);
      const std::int64_t w = ig::packed_a_source(d, taps.data(), g, j, r, m);
      REQUIRE((w >= 0) == slot.valid);
      if (!slot.valid) continue;
      const std::int64_t x = ig::b_source(d, cs, taps[static_cast<std::size_t>(slot.tap)], slot.channel);
      if (d.order == ig::KOrder::k_table) {
        // The kernel adds the table's delta to the column offset, gated by the table's tap offsets.
        const ig::KEntry& e = table[static_cast<std::size_t>(j * ig::kChunkRows + r)];
        REQUIRE(e.valid == 1);
        const bool inside = ig::tap_in_input(d, cs, e.offset);
        REQUIRE(inside == (x >= 0));
        if (inside) REQUIRE(cs.offset + e.delta == x);
      }
      if (x >= 0) pairs.emplace_back(x, w);
    }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Runs every (group, column, row) of one GEMM: output position, pairs, and (transposed) owned untapped outputs.
void run_gemm(const ConvProblem& p3, const ig::GemmConvParams& d, const std::vector<ig::GemmTap>& taps, Tally& t) {
  const std::vector<ig::KEntry> table = ig::make_k_table(d, taps);
  REQUIRE(static_cast<std::int64_t>(table.size()) == d.chunks * ig::kChunkRows);
  for (std::int64_t g = 0; g < d.groups; ++g)
    for (std::int64_t n = 0; n < d.columns; ++n) {
      const ig::OutputState os = ig::output_state(d, g, n);
      REQUIRE(os.valid);
      for (std::int64_t m = 0; m < d.rows; ++m) {
        const std::int64_t out = os.offset + m * d.out_volume;
        REQUIRE(out >= 0);
        REQUIRE(out < p3.output_elements());
        ++t.hits[static_cast<std::size_t>(out)];
        ++t.computed;
        const std::vector<test::Pair> got = gemm_pairs(d, taps, table, g, n, m);
        CHECK(got == test::brute_force_pairs(p3, out));
        t.pairs += static_cast<std::int64_t>(got.size());
        const std::int64_t tail = ig::tail_length(d, os.last_coord);
        for (std::int64_t i = 1; i <= tail; ++i) {
          ++t.hits[static_cast<std::size_t>(out + i)];
          ++t.bias_only;
          CHECK(test::brute_force_pairs(p3, out + i).empty());
        }
        if (os.first_in_row)
          for (std::int64_t pos = 0; pos < d.lead; ++pos) {
            const std::int64_t o = out - os.last_coord + pos;
            ++t.hits[static_cast<std::size_t>(o)];
            ++t.bias_only;
            CHECK(test::brute_force_pairs(p3, o).empty());
          }
      }
    }
  // Packed A: a bijection onto [0, size).
  std::set<std::int64_t> seen;
  for (std::int64_t g = 0; g < d.groups; ++g)
    for (std::int64_t j = 0; j < d.chunks; ++j)
      for (std::int64_t r = 0; r < ig::kChunkRows; ++r)
        for (std::int64_t m = 0; m < d.rows_padded; ++m) seen.insert(ig::packed_a_index(d, g, j, r, m));
  CHECK(static_cast<std::int64_t>(seen.size()) == ig::packed_a_size(d));
  CHECK(*seen.begin() == 0);
  CHECK(*seen.rbegin() == ig::packed_a_size(d) - 1);
  // packed_a_coord inverts packed_a_index (k_major), and in the mma_fragments layout visits every
  // (group, chunk, row, m) once, each at its fragment's start + 4 * lane + element.
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>> fragment_coords;
  for (std::int64_t idx = 0; idx < ig::packed_a_size(d); ++idx) {
    const ig::PackedACoord k = ig::packed_a_coord(d, idx, ig::ALayout::k_major);
    REQUIRE(ig::packed_a_index(d, k.group, k.chunk, k.row, k.m) == idx);
    const ig::PackedACoord f = ig::packed_a_coord(d, idx, ig::ALayout::mma_fragments);
    fragment_coords.insert({f.group, f.chunk, f.row, f.m});
    const std::int64_t lane = (f.m % 8) * 4 + f.row % 4, e = (f.m % 16) / 8 + 2 * ((f.row % 8) / 4);
    REQUIRE(ig::packed_a_fragment_index(d, f.group, f.chunk, f.row / 8, f.m / 16) + 4 * lane + e == idx);
  }
  CHECK(static_cast<std::int64_t>(fragment_coords.size()) == ig::packed_a_size(d));
}

void run_zero_fill(const ConvProblem& p3, Tally& t) {
  const gpu::conv::ZeroFillParams z = gpu::conv::make_zero_fill_params(p3);
  const std::int64_t row = z.out_extent[2], plane_size = z.out_extent[1] * z.out_extent[2];
  const auto mark = [&](std::int64_t begin, std::int64_t count) {
    for (std::int64_t o = begin; o < begin + count; ++o) {
      ++t.hits[static_cast<std::size_t>(o)];
      ++t.bias_only;
      CHECK(test::brute_force_pairs(p3, o).empty());
    }
  };
  for (std::int64_t plane = 0; plane < z.planes; ++plane) {
    const gpu::conv::PlaneCoord pc = gpu::conv::plane_coord(z, plane);
    const geometry::TensorCoord first = geometry::unflatten(pc.offset, p3.out_channels, p3.output(), 3);
    CHECK(first.c == pc.channel);
    CHECK(first.pos[0] == pc.coord0);
    if (gpu::conv::plane_untapped(z, pc.coord0)) {
      mark(pc.offset, plane_size);
      continue;
    }
    for (std::int64_t ph = 0; ph < z.dim[1].stride; ++ph) {
      if (!gpu::conv::row_phase_untapped(z, ph)) continue;
      const gpu::conv::PhaseRange rows = gpu::conv::rows_of_phase(z, ph);
      for (std::int64_t q = rows.q_begin; q < rows.q_begin + rows.count; ++q)
        mark(pc.offset + gpu::conv::row_of_phase(z, ph, q) * row, row);
    }
  }
}

// Columns worth sampling in a GEMM of `columns` columns, `per_image` to an image: the first and last
// few, both sides of every 64th image seam (the seams of the last images hold the largest offsets),
// and `random` more.
std::vector<std::int64_t> sampled_columns(std::int64_t columns, std::int64_t per_image, std::mt19937_64& rng,
                                          int random) {
  std::set<std::int64_t> picked;
  for (std::int64_t i = 0; i < 3; ++i) {
    picked.insert(std::min(i, columns - 1));
    picked.insert(std::max<std::int64_t>(columns - 1 - i, 0));
  }
  for (std::int64_t seam = per_image; seam < columns; seam += 64 * per_image) {
    picked.insert(seam - 1);
    picked.insert(seam);
  }
  picked.insert(columns - per_image);
  for (int i = 0; i < random; ++i) picked.insert(test::pick(rng, 0, columns - 1));
  return {picked.begin(), picked.end()};
}

// The GEMM's pairs at full size, sampled: for each sampled column, its first, last and one random
// row against brute force; returns the largest input index read.
std::int64_t check_sampled(const ConvProblem& p3, const ig::GemmConvParams& d, const std::vector<ig::GemmTap>& taps,
                           std::int64_t per_image, std::mt19937_64& rng) {
  const std::vector<ig::KEntry> table = ig::make_k_table(d, taps);
  std::int64_t largest = 0;
  for (std::int64_t g = 0; g < d.groups; ++g)
    for (const std::int64_t n : sampled_columns(d.columns, per_image, rng, 40)) {
      const ig::OutputState os = ig::output_state(d, g, n);
      REQUIRE(os.valid);
      for (const std::int64_t m : {std::int64_t{0}, d.rows - 1, test::pick(rng, 0, d.rows - 1)}) {
        const std::int64_t out = os.offset + m * d.out_volume;
        CAPTURE(n);
        CAPTURE(m);
        REQUIRE(out >= 0);
        REQUIRE(out < p3.output_elements());
        const std::vector<test::Pair> got = gemm_pairs(d, taps, table, g, n, m);
        CHECK(got == test::brute_force_pairs(p3, out));
        for (const test::Pair& pair : got) largest = std::max(largest, pair.first);
      }
    }
  return largest;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("implicit GEMM of forward convolutions: exact coverage and exact pairs, both reduction orders") {
    std::mt19937_64 rng(kbench::testing::test_seed(50));
    Tally total;
    // At least 120 problems, and on until over 10,000 outputs and pairs are checked (whatever the seed draws).
    for (int trial = 0; trial < 120 || total.computed <= 10000 || total.pairs <= 10000; ++trial) {
      REQUIRE_MESSAGE(trial < 480,
                      "the problems stay too small: " << total.computed << " outputs, " << total.pairs << " pairs");
      const ConvProblem p3 = as_rank3(test::random_problem(rng, OpKind::conv));
      for (const ig::KOrder order : {ig::KOrder::channel_blocks, ig::KOrder::k_table}) {
        const std::vector<ig::GemmTap> taps = ig::forward_taps(p3);
        const ig::GemmConvParams d = ig::make_forward_params(p3, order, 32);
        REQUIRE(d.columns == p3.batch * p3.output_spatial_volume());
        Tally t;
        t.hits.assign(static_cast<std::size_t>(p3.output_elements()), 0);
        run_gemm(p3, d, taps, t);
        CHECK(std::all_of(t.hits.begin(), t.hits.end(), [](int h) { return h == 1; }));
        CHECK(t.bias_only == 0);
        total.computed += t.computed;
        total.pairs += t.pairs;
      }
    }
  }

  TEST_CASE("transposed convolutions: phase GEMMs plus zero fill write every output once, computing only tapped ones") {
    std::mt19937_64 rng(kbench::testing::test_seed(77));
    std::int64_t computed = 0, bias_only = 0, gemms = 0;
    // At least 150 problems, and on until over 5,000 outputs computed and 5,000 written without
    // computing, in over 150 phase GEMMs (whatever the seed draws).
    for (int trial = 0; trial < 150 || computed <= 5000 || bias_only <= 5000 || gemms <= 150; ++trial) {
      REQUIRE_MESSAGE(trial < 600, "the problems stay too small: " << computed << " computed, " << bias_only
                                                                   << " not computed, " << gemms << " GEMMs");
      const ConvProblem p3 = as_rank3(test::random_problem(rng, OpKind::conv_transpose));
      Tally t;
      t.hits.assign(static_cast<std::size_t>(p3.output_elements()), 0);
      const std::vector<gpu::conv::PhaseGemm> phase_gemms = gpu::conv::make_phase_gemms(p3, 32);
      CHECK(static_cast<std::int64_t>(phase_gemms.size()) == gpu::conv::tapped_phase_combinations(p3));
      for (const gpu::conv::PhaseGemm& g : phase_gemms) {
        // Only outputs with taps along every dimension are computed.
        for (int d = 0; d < 3; ++d) CHECK(gpu::conv::phase_tap_count(gpu::conv::make_phase_dim(p3, d), g.phase[d]) > 0);
        run_gemm(p3, g.desc, g.taps, t);
      }
      run_zero_fill(p3, t);
      for (std::size_t o = 0; o < t.hits.size(); ++o) {
        INFO("output " << o << " of " << t.hits.size());
        REQUIRE(t.hits[o] == 1);
      }
      computed += t.computed;
      bias_only += t.bias_only;
      gemms += static_cast<std::int64_t>(phase_gemms.size());
    }
  }

  TEST_CASE("problem 77's shape: one phase GEMM (M 64, K 32 x 27, N 262144), 88% of the output never computed") {
    ConvProblem p;
    p.op = OpKind::conv_transpose;
    p.spatial_rank = 3;
    p.batch = 16;
    p.in_channels = 32;
    p.out_channels = 64;
    for (int d = 0; d < 3; ++d) {
      p.kernel[d] = 3;
      p.stride[d] = 2;
      p.dilation[d] = 2;
      p.pad_before[d] = 1;
      p.pad_after[d] = 1;
    }
    p.input = Dims{{16, 32, 32}};
    const std::vector<gpu::conv::PhaseGemm> g = gpu::conv::make_phase_gemms(p, 64);
    REQUIRE(g.size() == 1);
    CHECK(g[0].desc.rows == 64);
    CHECK(g[0].desc.taps == 27);
    CHECK(g[0].desc.order == ig::KOrder::channel_blocks);
    CHECK(g[0].desc.chunks == 2 * 27);
    CHECK(g[0].desc.columns == 16 * 16 * 32 * 32);
    CHECK(g[0].desc.tail == 1);
    CHECK(g[0].desc.lead == 1);
    const double computed = static_cast<double>(g[0].desc.columns * 64);
    CHECK(computed / static_cast<double>(p.output_elements()) == doctest::Approx(0.1176).epsilon(0.01));
  }

  TEST_CASE("the seeds' GEMMs at full size, sampled: exact pairs at the image seams and the last columns") {
    std::mt19937_64 rng(kbench::testing::test_seed(2031));
    // Problem 76: 2,147,450,880 input elements (8.6 GB), 2^15 short of 2^31; with twice its batch, the
    // later images' indices pass 2^31, where 32-bit index arithmetic would wrap. Either way the last
    // columns read exactly the last element.
    for (const std::int64_t batch : {64, 128}) {
      ConvProblem s76 = as_rank3(testing::headline76());
      s76.batch = batch;
      for (const ig::KOrder order : {ig::KOrder::channel_blocks, ig::KOrder::k_table}) {
        CAPTURE(batch);
        CAPTURE(std::string(ig::order_name(order)));
        const ig::GemmConvParams d = ig::make_forward_params(s76, order, 128);
        const std::int64_t largest = check_sampled(s76, d, ig::forward_taps(s76), s76.output_spatial_volume(), rng);
        CHECK(largest == s76.input_elements() - 1);
      }
    }
    // Problem 50 (channel blocks and the tap table; input_patch has its own test) and problem 77's phase GEMM.
    const ConvProblem s50 = as_rank3(testing::headline50());
    for (const ig::KOrder order : {ig::KOrder::channel_blocks, ig::KOrder::k_table})
      check_sampled(s50, ig::make_forward_params(s50, order, 96), ig::forward_taps(s50), s50.output_spatial_volume(),
                    rng);
    const ConvProblem s77 = as_rank3(testing::headline77());
    const std::vector<gpu::conv::PhaseGemm> phases = gpu::conv::make_phase_gemms(s77, 64);
    REQUIRE(phases.size() == 1);
    check_sampled(s77, phases[0].desc, phases[0].taps, phases[0].desc.columns / s77.batch, rng);
  }

  TEST_CASE("fill-only blocks: as many as the tiles while there are planes for them") {
    CHECK(gpu::conv::trailing_fill_blocks(2048, 33792) == 2048);  // problem 77
    CHECK(gpu::conv::trailing_fill_blocks(100, 130) == 30);       // every block has a plane
    CHECK(gpu::conv::trailing_fill_blocks(100, 60) == 0);
    CHECK(gpu::conv::trailing_fill_blocks(5, 0) == 0);
  }

  TEST_CASE("problem 77's launch: its 2,048 column tiles, then 2,048 fill-only blocks (or none: a variant)") {
    const ConvProblem p3 = as_rank3(testing::headline77());
    const std::vector<gpu::conv::PhaseGemm> g = gpu::conv::transposed_gemms(p3);
    REQUIRE(g.size() == 1);
    CHECK(g[0].desc.fill_blocks == 2048);
    CHECK(ig::gemm_grid(g[0].desc).x == 2048 + 2048);
    CHECK(gpu::conv::make_zero_fill_params(p3).planes == 16 * 64 * 33);
    CHECK(gpu::conv::transposed_gemms(p3, gpu::conv::FillBlocks::none)[0].desc.fill_blocks == 0);

    using gpu::conv::KernelChoice;
    const KernelChoice old{.family = gpu::conv::Family::transposed_phase_tf32, .fill = gpu::conv::FillBlocks::none};
    CHECK(gpu::conv::variant_name(old) == "transposed_phase_tf32/no_fill_blocks");
    CHECK(gpu::conv::choice_envelope(old, testing::headline77(), MathMode::tf32));
    bool listed = false;
    for (const KernelChoice& c : gpu::conv::applicable_variants(testing::headline77(), MathMode::tf32))
      listed = listed || gpu::conv::variant_name(c) == "transposed_phase_tf32/no_fill_blocks";
    CHECK(listed);
    const KernelChoice on_forward{.family = gpu::conv::Family::implicit_gemm_tf32, .fill = gpu::conv::FillBlocks::none};
    CHECK_FALSE(gpu::conv::choice_envelope(on_forward, testing::headline76(), MathMode::tf32));
    // Output padding aside, a transposed convolution whose every output is tapped has no fill to move.
    ConvProblem dense = testing::headline77();
    dense.stride = dense.dilation = Dims{{1, 1, 1}};
    CHECK(gpu::conv::zero_fill_has_work(gpu::conv::make_zero_fill_params(p3)));
    CHECK_FALSE(gpu::conv::zero_fill_has_work(gpu::conv::make_zero_fill_params(as_rank3(dense))));
    CHECK(gpu::conv::transposed_gemms(as_rank3(dense))[0].desc.fill_blocks == 0);
    const Support none = gpu::conv::choice_envelope(old, dense, MathMode::tf32);
    CHECK_FALSE(none);
    CHECK(none.reason.find("no fill-only blocks") != std::string::npos);
  }

  TEST_CASE("reduction order: channel blocks unless they would be mostly zero rows") {
    CHECK(ig::choose_k_order(64, 3) == ig::KOrder::channel_blocks);    // problem 76
    CHECK(ig::choose_k_order(3, 121) == ig::KOrder::k_table);          // problem 50
    CHECK(ig::choose_k_order(32, 27) == ig::KOrder::channel_blocks);   // problem 77
    CHECK(ig::choose_k_order(3, 2048) == ig::KOrder::channel_blocks);  // table too large
    CHECK(ig::chunk_count(3, 121, ig::KOrder::k_table) == 23);
    CHECK(ig::chunk_count(64, 3, ig::KOrder::channel_blocks) == 12);
  }

}  // TEST_SUITE

}  // namespace kbench
