// The half-precision transposed convolution by phases (transposed_phase_half/half_phase_index.hpp) against brute
// force on random transposed problems in both layouts: the phase GEMMs' rows cover exactly the
// outputs on tapped phases, each once, and the rest are exactly the bias fill's; each covered output's
// (input, weight) pairs, read through the GEMM's A offsets and the packed B's sources, are exactly
// the convolution's (test_cuda_index_support.hpp); the packing reads each weight at most once; the
// fill's lines write exactly the untapped outputs, each with its channel's bias.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "cuda/transposed_phase_half/half_phase_index.hpp"
#include "problem/memory_layout.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

namespace hg = gpu::conv::half_gemm;
using test::Pair;

void check_phase_gemms(const ConvProblem& p) {
  const ConvProblem p3 = as_rank3(p);
  const std::vector<hg::HalfPhaseGemm> gemms = hg::make_half_phase_gemms(p);
  const hg::BiasFillParams fill = hg::make_bias_fill_params(p);
  CHECK(static_cast<std::int64_t>(gemms.size()) == hg::tapped_phase_count(p3));

  // Per logical output: how many GEMM rows write it, and the (input, weight) pairs they sum.
  const auto outputs = static_cast<std::size_t>(p3.output_elements());
  std::vector<int> covered(outputs, 0);
  std::vector<std::vector<Pair>> pairs(outputs);
  std::int64_t packed = 0;
  for (const hg::HalfPhaseGemm& g : gemms) {
    const hg::HalfGemmParams& d = g.desc;
    CAPTURE(g.phase[0]);
    CAPTURE(g.phase[1]);
    CAPTURE(g.phase[2]);
    REQUIRE(g.packed_offset == packed);  // one phase's B after another
    packed += hg::packed_elements(g);
    CHECK(d.vector_loads == (p.layout == Layout::nhwc && d.cin_pg % hg::kVector == 0));
    // Packing reads stored weights, each at most once within a phase.
    std::set<std::int64_t> sources;
    for (std::int64_t e = 0; e < hg::packed_elements(g); ++e) {
      const std::int64_t s = hg::packed_weight_source(g, e);
      REQUIRE((s >= 0 && s < p3.weight_elements()));
      REQUIRE(sources.insert(s).second);
    }
    for (std::int64_t group = 0; group < p3.groups; ++group)
      for (std::int64_t m = 0; m < d.rows; ++m) {
        const hg::RowOrigin r = hg::row_origin(d, m);
        for (std::int64_t j = 0; j < d.cols; ++j) {
          const std::int64_t out = logical_index(p3, Operand::output, hg::output_offset(d, r, group, j));
          REQUIRE((out >= 0 && out < p3.output_elements()));
          ++covered[static_cast<std::size_t>(out)];
          for (std::int64_t k = 0; k < d.depth + 3; ++k) {
            const std::int64_t x = hg::input_offset(d, r, group, k);
            if (k >= d.depth) {
              REQUIRE(x == -1);
              continue;
            }
            if (x < 0) continue;  // a tap reading outside the input
            const std::int64_t b = hg::weight_offset(d, group, j, k);
            REQUIRE(b == group * d.w_group + j * d.w_row + k);  // the packed B is contiguous in k
            const std::int64_t w = hg::packed_weight_source(g, b);
            pairs[static_cast<std::size_t>(out)].emplace_back(logical_index(p3, Operand::input, x),
                                                              logical_index(p3, Operand::weight, w));
          }
        }
      }
  }
  const std::int64_t volume = fill.out_volume;
  for (std::size_t out = 0; out < outputs; ++out) {
    CAPTURE(out);
    const auto position = static_cast<std::int64_t>(out) % volume;
    const bool untapped = hg::position_untapped(fill, position);
    REQUIRE(covered[out] == (untapped ? 0 : 1));
    std::vector<Pair> got = pairs[out];
    std::sort(got.begin(), got.end());
    REQUIRE(got == test::brute_force_pairs(p3, static_cast<std::int64_t>(out)));
  }
  std::int64_t untapped_outputs = 0;
  for (std::int64_t position = 0; position < volume; ++position)
    untapped_outputs += hg::position_untapped(fill, position) ? 1 : 0;
  CHECK(fill.has_work == (untapped_outputs > 0));

  // The fill's lines tile the stored output; each element is written exactly when its position is
  // untapped, with its own channel's bias.
  REQUIRE(fill.lines * fill.line_length == p3.output_elements());
  for (std::int64_t offset = 0; offset < p3.output_elements(); ++offset) {
    const std::int64_t logical = logical_index(p3, Operand::output, offset);
    const hg::FillLine line = hg::fill_line(fill, offset / fill.line_length);
    const hg::FillTarget t = hg::fill_target(fill, line, offset % fill.line_length);
    REQUIRE(t.write == hg::position_untapped(fill, logical % volume));
    REQUIRE(t.channel == logical / volume % p3.out_channels);
  }
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("half transposed by phases: coverage, pairs, packing and fill against brute force, NCHW and NHWC") {
    std::mt19937_64 rng(testing::test_seed(7701));
    for (int trial = 0; trial < 80; ++trial) {
      ConvProblem p = test::random_problem(rng, OpKind::conv_transpose);
      p.dtype = trial % 2 == 0 ? DType::fp16 : DType::bf16;
      if (trial % 4 == 3) p.in_channels = p.groups * 8;  // vector loads under NHWC
      for (const Layout layout : {Layout::nchw, Layout::nhwc}) {
        p.layout = layout;
        CAPTURE(trial);
        CAPTURE(to_string(layout));
        check_phase_gemms(p);
      }
    }
  }

  TEST_CASE("half transposed by phases: problem 77 is one tapped phase of 27 taps, the rest filled") {
    ConvProblem p = testing::headline77();
    p.dtype = DType::fp16;
    p.layout = Layout::nhwc;
    const std::vector<hg::HalfPhaseGemm> gemms = hg::make_half_phase_gemms(p);
    REQUIRE(gemms.size() == 1);
    CHECK(gemms[0].desc.kvol == 27);
    CHECK(gemms[0].desc.rows == 16 * 16 * 32 * 32);  // the odd outputs along each dimension
    CHECK(gemms[0].desc.vector_loads);
    const hg::BiasFillParams fill = hg::make_bias_fill_params(p);
    CHECK(fill.has_work);
    CHECK(hg::fill_vectors(fill));
  }
}

}  // namespace kbench
