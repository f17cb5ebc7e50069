// Channels-last offsets (problem/memory_layout.hpp) against an explicit [d0, spatial..., C] enumeration.
#include <doctest/doctest.h>

#include <set>

#include "problem/conv_geometry.hpp"
#include "problem/memory_layout.hpp"

using namespace kbench;

namespace {

ConvProblem small_problem(Layout layout, OpKind op) {
  ConvProblem p;
  p.op = op;
  p.layout = layout;
  p.spatial_rank = 2;
  p.batch = 2;
  p.in_channels = 6;
  p.out_channels = 4;
  p.groups = 2;
  p.input = Dims{{5, 3, 1}};
  p.kernel = Dims{{3, 2, 1}};
  p.bias = true;
  return p;
}

}  // namespace

TEST_CASE("channels-last offset of an activation: n, then spatial, then channel") {
  const ConvProblem p = small_problem(Layout::nhwc, OpKind::conv);
  const Dims extent = p.input;
  for (std::int64_t logical = 0; logical < p.input_elements(); ++logical) {
    const geometry::TensorCoord c = geometry::unflatten(logical, p.in_channels, extent, 2);
    const std::int64_t expected = ((c.n * extent[0] + c.pos[0]) * extent[1] + c.pos[1]) * p.in_channels + c.c;
    REQUIRE(memory_offset(p, Operand::input, logical) == expected);
    REQUIRE(logical_index(p, Operand::input, expected) == logical);
  }
}

TEST_CASE("channels-last weights are [dim0, k..., dim1] for conv and conv_transpose") {
  for (OpKind op : {OpKind::conv, OpKind::conv_transpose}) {
    const ConvProblem p = small_problem(Layout::nhwc, op);
    std::set<std::int64_t> seen;
    for (std::int64_t d0 = 0; d0 < p.weight_dim0(); ++d0)
      for (std::int64_t d1 = 0; d1 < p.weight_dim1(); ++d1)
        for (std::int64_t kh = 0; kh < p.kernel[0]; ++kh)
          for (std::int64_t kw = 0; kw < p.kernel[1]; ++kw) {
            const std::int64_t logical = geometry::weight_index(p, d0, d1, Dims{{kh, kw, 0}});
            const std::int64_t expected = ((d0 * p.kernel[0] + kh) * p.kernel[1] + kw) * p.weight_dim1() + d1;
            REQUIRE(memory_offset(p, Operand::weight, logical) == expected);
            REQUIRE(logical_index(p, Operand::weight, expected) == logical);
            seen.insert(expected);
          }
    CHECK(static_cast<std::int64_t>(seen.size()) == p.weight_elements());
  }
}

TEST_CASE("nchw and bias offsets are the logical index") {
  const ConvProblem p = small_problem(Layout::nchw, OpKind::conv);
  for (std::int64_t i = 0; i < p.output_elements(); ++i) REQUIRE(memory_offset(p, Operand::output, i) == i);
  const ConvProblem q = small_problem(Layout::nhwc, OpKind::conv);
  for (std::int64_t i = 0; i < q.bias_elements(); ++i) CHECK(memory_offset(q, Operand::bias, i) == i);
}

TEST_CASE("layout names and synonyms") {
  CHECK(parse_layout("nhwc") == Layout::nhwc);
  CHECK(parse_layout("ndhwc") == Layout::nhwc);
  CHECK(parse_layout("nwc") == Layout::nhwc);
  CHECK(parse_layout("ncdhw") == Layout::nchw);
  CHECK(!parse_layout("NHWC").has_value());
  CHECK(to_string(Layout::nhwc) == "nhwc");
}
