// The reference against convolutions small enough to work out by hand. Every expected number below
// was computed on paper (the working is in the comments), never by the code under test. Inputs and
// weights are small integers, so fp64 results are exact and compared with ==.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "core/error.hpp"
#include "reference/reference_conv.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::data::HostTensors;

namespace {

ConvProblem problem(OpKind op, int rank, Dims input, Dims kernel, std::int64_t in_channels = 1,
                    std::int64_t out_channels = 1, std::int64_t groups = 1, std::int64_t batch = 1) {
  ConvProblem p;
  p.op = op;
  p.spatial_rank = rank;
  p.input = input;
  p.kernel = kernel;
  p.in_channels = in_channels;
  p.out_channels = out_channels;
  p.groups = groups;
  p.batch = batch;
  return p;
}

std::vector<float> iota(std::size_t count, float first = 1.0f) {
  std::vector<float> values(count);
  std::iota(values.begin(), values.end(), first);
  return values;
}

// Both formulations must give exactly the hand-computed output: the full one and the per-element gather.
void check_output(const ConvProblem& p, const HostTensors& tensors, const std::vector<double>& expected) {
  REQUIRE(p.output_elements() == static_cast<std::int64_t>(expected.size()));
  CHECK(kbench::reference::convolve(p, tensors) == expected);
  std::vector<std::int64_t> all(expected.size());
  std::iota(all.begin(), all.end(), std::int64_t{0});
  CHECK(kbench::reference::convolve_at(p, tensors, all) == expected);
}

}  // namespace

TEST_SUITE("reference") {
  TEST_CASE("conv1d: valid, stride 1") {
    // in 1 2 3 4 5, w 1 2 3: 1+4+9=14, 2+6+12=20, 3+8+15=26
    const ConvProblem p = problem(OpKind::conv, 1, Dims{{5, 1, 1}}, Dims{{3, 1, 1}});
    check_output(p, {iota(5), {1, 2, 3}, {}}, {14, 20, 26});
  }

  TEST_CASE("conv1d: symmetric padding and stride 2") {
    // padded 0 1 2 3 4 5 0, windows at 0, 2, 4 with w 1 2 3:
    // 0+2+6=8, 2+6+12=20, 4+10+0=14
    ConvProblem p = problem(OpKind::conv, 1, Dims{{5, 1, 1}}, Dims{{3, 1, 1}});
    p.pad_before = p.pad_after = Dims{{1, 0, 0}};
    p.stride = Dims{{2, 1, 1}};
    check_output(p, {iota(5), {1, 2, 3}, {}}, {8, 20, 14});
  }

  TEST_CASE("conv1d: asymmetric padding") {
    // pad 2 before, 0 after: padded 0 0 1 2 3 4 5, w 1 2 3: 3, 2+6=8, 14, 20, 26
    ConvProblem p = problem(OpKind::conv, 1, Dims{{5, 1, 1}}, Dims{{3, 1, 1}});
    p.pad_before = Dims{{2, 0, 0}};
    check_output(p, {iota(5), {1, 2, 3}, {}}, {3, 8, 14, 20, 26});
  }

  TEST_CASE("conv1d: dilation") {
    // k 2, dilation 3 reads in[o] and in[o+3]: 1+2*4=9, 2+2*5=12
    ConvProblem p = problem(OpKind::conv, 1, Dims{{5, 1, 1}}, Dims{{2, 1, 1}});
    p.dilation = Dims{{3, 1, 1}};
    check_output(p, {iota(5), {1, 2}, {}}, {9, 12});
  }

  TEST_CASE("conv2d: 3x3 input, 2x2 kernel") {
    // in 1 2 3 / 4 5 6 / 7 8 9, w 1 2 / 3 4:
    // (0,0) 1+4+12+20=37  (0,1) 2+6+15+24=47  (1,0) 4+10+21+32=67  (1,1) 5+12+24+36=77
    const ConvProblem p = problem(OpKind::conv, 2, Dims{{3, 3, 1}}, Dims{{2, 2, 1}});
    check_output(p, {iota(9), {1, 2, 3, 4}, {}}, {37, 47, 67, 77});
  }

  TEST_CASE("conv2d: bias") {
    // as above plus 10 everywhere
    ConvProblem p = problem(OpKind::conv, 2, Dims{{3, 3, 1}}, Dims{{2, 2, 1}});
    p.bias = true;
    check_output(p, {iota(9), {1, 2, 3, 4}, {10}}, {47, 57, 77, 87});
  }

  TEST_CASE("conv2d: channels and batch") {
    // 1x1 kernel, w = 2 (channel 0), 3 (channel 1): out = 2*c0 + 3*c1
    // batch 0: c0 1 2 3 4, c1 5 6 7 8 -> 17 22 27 32; batch 1: c0 1 1 1 1, c1 0 -> 2 2 2 2
    const ConvProblem p = problem(OpKind::conv, 2, Dims{{2, 2, 1}}, Dims{{1, 1, 1}}, 2, 1, 1, 2);
    check_output(p, {{1, 2, 3, 4, 5, 6, 7, 8, 1, 1, 1, 1, 0, 0, 0, 0}, {2, 3}, {}}, {17, 22, 27, 32, 2, 2, 2, 2});
  }

  TEST_CASE("conv2d: per-dimension stride and asymmetric padding") {
    // in (3x4) 1..12; w = 1 0 / 0 1 reads P[2*oh][ow] + P[2*oh+1][ow+1] of the padded input
    // (one zero row before, one zero column after):
    //   P = 0 0 0 0 0 / 1 2 3 4 0 / 5 6 7 8 0 / 9 10 11 12 0
    // oh 0: 0 + (2 3 4 0) = 2 3 4 0;  oh 1: (5 6 7 8) + (10 11 12 0) = 15 17 19 8
    ConvProblem p = problem(OpKind::conv, 2, Dims{{3, 4, 1}}, Dims{{2, 2, 1}});
    p.stride = Dims{{2, 1, 1}};
    p.pad_before = Dims{{1, 0, 0}};
    p.pad_after = Dims{{0, 1, 0}};
    check_output(p, {iota(12), {1, 0, 0, 1}, {}}, {2, 3, 4, 0, 15, 17, 19, 8});
  }

  TEST_CASE("conv3d: 2x2x2 kernel over a 2x2x2 input") {
    // w = in = 1..8: 1+4+9+16+25+36+49+64 = 204
    const ConvProblem p = problem(OpKind::conv, 3, Dims{{2, 2, 2}}, Dims{{2, 2, 2}});
    check_output(p, {iota(8), iota(8), {}}, {204});
  }

  TEST_CASE("conv3d: 2x1x2 kernel") {
    // in[d][h][w] = 6d + 3h + w + 1 (D2 H2 W3); w[kd][0][kw] = 1 2 / 3 4
    // out[0][h][w] = in[0][h][w] + 2 in[0][h][w+1] + 3 in[1][h][w] + 4 in[1][h][w+1]
    // (0,0) 1+4+21+32=58  (0,1) 2+6+24+36=68  (1,0) 4+10+30+44=88  (1,1) 5+12+33+48=98
    const ConvProblem p = problem(OpKind::conv, 3, Dims{{2, 2, 3}}, Dims{{2, 1, 2}});
    check_output(p, {iota(12), {1, 2, 3, 4}, {}}, {58, 68, 88, 98});
  }

  TEST_CASE("conv1d: groups, two input channels per group") {
    // c0 1 2, c1 3 4, c2 5 6, c3 7 8; out0 = 1 c0 + 2 c1 = 7 10; out1 = 3 c2 + 4 c3 = 43 50
    const ConvProblem p = problem(OpKind::conv, 1, Dims{{2, 1, 1}}, Dims{{1, 1, 1}}, 4, 2, 2);
    check_output(p, {iota(8), {1, 2, 3, 4}, {}}, {7, 10, 43, 50});
  }

  TEST_CASE("conv1d: groups, two output channels per group") {
    // in 10, 100; w 1 2 3 4: out0 = 10, out1 = 20 (group 0), out2 = 300, out3 = 400 (group 1)
    const ConvProblem p = problem(OpKind::conv, 1, Dims{{1, 1, 1}}, Dims{{1, 1, 1}}, 2, 4, 2);
    check_output(p, {{10, 100}, {1, 2, 3, 4}, {}}, {10, 20, 300, 400});
  }

  TEST_CASE("conv2d: depthwise") {
    // c0 1 2 3 4 with w 1 1 1 1 -> 10; c1 5 6 7 8 with w 1 0 0 -1 -> 5-8 = -3
    const ConvProblem p = problem(OpKind::conv, 2, Dims{{2, 2, 1}}, Dims{{2, 2, 1}}, 2, 2, 2);
    check_output(p, {iota(8), {1, 1, 1, 1, 1, 0, 0, -1}, {}}, {10, -3});
  }

  TEST_CASE("conv_transpose1d: stride 2") {
    // in 1 2 3 scattered to 2i + k with w 1 2 3 (length (3-1)*2 + 2 + 1 = 7):
    // i0: +1 +2 +3 at 0 1 2; i1: +2 +4 +6 at 2 3 4; i2: +3 +6 +9 at 4 5 6 -> 1 2 5 4 9 6 9
    ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{3, 1, 1}}, Dims{{3, 1, 1}});
    p.stride = Dims{{2, 1, 1}};
    check_output(p, {iota(3), {1, 2, 3}, {}}, {1, 2, 5, 4, 9, 6, 9});
  }

  TEST_CASE("conv_transpose1d: output_padding extends the end") {
    // as above with one more position nobody reaches: 1 2 5 4 9 6 9 0
    ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{3, 1, 1}}, Dims{{3, 1, 1}});
    p.stride = Dims{{2, 1, 1}};
    p.output_padding = Dims{{1, 0, 0}};
    check_output(p, {iota(3), {1, 2, 3}, {}}, {1, 2, 5, 4, 9, 6, 9, 0});
  }

  TEST_CASE("conv_transpose1d: padding crops, output_padding adds") {
    // full (uncropped, op 1) 1 2 5 4 9 6 9 0; padding 1 crops one position each side -> 2 5 4 9 6 9
    ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{3, 1, 1}}, Dims{{3, 1, 1}});
    p.stride = Dims{{2, 1, 1}};
    p.pad_before = p.pad_after = Dims{{1, 0, 0}};
    p.output_padding = Dims{{1, 0, 0}};
    check_output(p, {iota(3), {1, 2, 3}, {}}, {2, 5, 4, 9, 6, 9});
  }

  TEST_CASE("conv_transpose1d: asymmetric padding crops each side by its own amount") {
    // full 1 2 5 4 9 6 9; crop 2 before, 0 after -> 5 4 9 6 9
    ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{3, 1, 1}}, Dims{{3, 1, 1}});
    p.stride = Dims{{2, 1, 1}};
    p.pad_before = Dims{{2, 0, 0}};
    check_output(p, {iota(3), {1, 2, 3}, {}}, {5, 4, 9, 6, 9});
  }

  TEST_CASE("conv_transpose1d: dilation") {
    // in 1 2, w 1 10, dilation 2: i0 -> +1 at 0, +10 at 2; i1 -> +2 at 1, +20 at 3 -> 1 2 10 20
    ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{2, 1, 1}}, Dims{{2, 1, 1}});
    p.dilation = Dims{{2, 1, 1}};
    check_output(p, {iota(2), {1, 10}, {}}, {1, 2, 10, 20});
  }

  TEST_CASE("conv_transpose1d: groups with two output channels per group, and bias") {
    // weight [C_in 2][C_out/g 2][k 2]: ci0 -> (1 2) (3 4), ci1 -> (5 6) (7 8); in ci0 = 1, ci1 = 10
    // co0 = 1 2, co1 = 3 4 (group 0), co2 = 50 60, co3 = 70 80 (group 1); bias .5 -1 2 0
    ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{1, 1, 1}}, Dims{{2, 1, 1}}, 2, 4, 2);
    p.bias = true;
    check_output(p, {{1, 10}, iota(8), {0.5f, -1, 2, 0}}, {1.5, 2.5, 2, 3, 52, 62, 70, 80});
  }

  TEST_CASE("conv_transpose1d: groups with two input channels per group") {
    // weight [4][1][1] = 1 2 3 4; in 1 10 100 1000: co0 = 1*1 + 2*10 = 21; co1 = 3*100 + 4*1000 = 4300
    const ConvProblem p = problem(OpKind::conv_transpose, 1, Dims{{1, 1, 1}}, Dims{{1, 1, 1}}, 4, 2, 2);
    check_output(p, {{1, 10, 100, 1000}, {1, 2, 3, 4}, {}}, {21, 4300});
  }

  TEST_CASE("conv_transpose2d: stride 1 overlaps, stride 2 tiles") {
    // in 1 2 / 3 4, w all ones. Stride 1 (3x3): each output sums the inputs within one step up-left:
    // 1 3 2 / 4 10 6 / 3 7 4. Stride 2 (4x4): each input fills its own 2x2 block.
    ConvProblem p = problem(OpKind::conv_transpose, 2, Dims{{2, 2, 1}}, Dims{{2, 2, 1}});
    const HostTensors tensors{iota(4), {1, 1, 1, 1}, {}};
    check_output(p, tensors, {1, 3, 2, 4, 10, 6, 3, 7, 4});
    p.stride = Dims{{2, 2, 1}};
    check_output(p, tensors, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  }

  TEST_CASE("conv_transpose3d: strides, output_padding, holes") {
    // in (D2 H1 W2) 1 2 / 3 4, 1x1x1 kernel w 2, stride (2,1,2), output_padding (0,0,1): out D3 H1 W4.
    // d0: 2 0 4 0; d1 (nobody lands): 0 0 0 0; d2: 6 0 8 0
    ConvProblem p = problem(OpKind::conv_transpose, 3, Dims{{2, 1, 2}}, Dims{{1, 1, 1}});
    p.stride = Dims{{2, 1, 2}};
    p.output_padding = Dims{{0, 0, 1}};
    check_output(p, {iota(4), {2}, {}}, {2, 0, 4, 0, 0, 0, 0, 0, 6, 0, 8, 0});
  }

  TEST_CASE("sampled outputs come back in the order asked, repeats allowed") {
    // the 2x2 output 37 47 / 67 77 of the conv2d case above
    const ConvProblem p = problem(OpKind::conv, 2, Dims{{3, 3, 1}}, Dims{{2, 2, 1}});
    const std::vector<std::int64_t> indices{3, 0, 3, 2};
    CHECK(kbench::reference::convolve_at(p, {iota(9), {1, 2, 3, 4}, {}}, indices) ==
          std::vector<double>{77, 37, 77, 67});
    CHECK(kbench::reference::convolve_at(p, {iota(9), {1, 2, 3, 4}, {}}, {}).empty());
  }

  TEST_CASE("bad arguments are reported, not crashed on") {
    ConvProblem p = problem(OpKind::conv, 2, Dims{{3, 3, 1}}, Dims{{2, 2, 1}});
    const HostTensors tensors{iota(9), {1, 2, 3, 4}, {}};
    const std::vector<std::int64_t> outside{4};
    const std::vector<std::int64_t> negative{-1};
    CHECK_THROWS_AS(kbench::reference::convolve_at(p, tensors, outside), std::out_of_range);
    CHECK_THROWS_AS(kbench::reference::convolve_at_seeded(p, 1, negative), std::out_of_range);
    CHECK_THROWS_AS(kbench::reference::convolve(p, {iota(8), {1, 2, 3, 4}, {}}), std::invalid_argument);
    CHECK_THROWS_AS(kbench::reference::convolve(p, {iota(9), {1, 2, 3}, {}}), std::invalid_argument);
    CHECK_THROWS_AS(kbench::reference::convolve(p, {iota(9), {1, 2, 3, 4}, {1}}), std::invalid_argument);
    p.kernel = Dims{{4, 2, 1}};  // larger than the input: no output
    CHECK_THROWS_AS(kbench::reference::convolve(p, tensors), kbench::InputError);
    p = problem(OpKind::conv, 1, Dims{{3, 1, 1}}, Dims{{1, 1, 1}}, 3, 2, 2);  // groups do not divide C_in
    CHECK_THROWS_WITH_AS(kbench::reference::convolve_at_seeded(p, 1, {}),
                         doctest::Contains("groups: in_channels must be divisible by groups, got in_channels 3"), kbench::InputError);
    p = problem(OpKind::conv, 1, Dims{{3, 1, 1}}, Dims{{1, 1, 1}});
    p.stride = Dims{{0, 1, 1}};
    CHECK_THROWS_AS(kbench::reference::convolve_at_seeded(p, 1, {}), kbench::InputError);
  }
}
