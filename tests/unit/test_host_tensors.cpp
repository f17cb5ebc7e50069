// Seeded host tensors: PyTorch-like ranges, determinism per seed, and PyTorch's fan_in.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "data/host_tensors.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::data::TensorRole;

namespace {

// conv2d 4 -> 6, groups 2, 3x3 kernel, 20x20 input, bias: weight [6][2][3][3], fan_in 2*9 = 18.
ConvProblem grouped_conv() {
  ConvProblem p;
  p.batch = 2;
  p.in_channels = 4;
  p.out_channels = 6;
  p.groups = 2;
  p.input = Dims{{20, 20, 1}};
  p.kernel = Dims{{3, 3, 1}};
  p.bias = true;
  return p;
}

std::size_t count_different(const std::vector<float>& a, const std::vector<float>& b) {
  std::size_t different = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) different += a[i] != b[i];
  return different;
}

}  // namespace

TEST_SUITE("host_tensors") {
  TEST_CASE("init_bound is 1/sqrt(fan_in), fan_in = weight.size(1) x kernel volume") {
    ConvProblem p = grouped_conv();
    CHECK(kbench::data::init_bound(p) == doctest::Approx(1.0 / std::sqrt(18.0)));
    p.op = OpKind::conv_transpose;  // weight [4][6/2][3][3]: fan_in 3*9 = 27
    CHECK(kbench::data::init_bound(p) == doctest::Approx(1.0 / std::sqrt(27.0)));
  }

  TEST_CASE("sizes follow the problem, no bias tensor without bias") {
    ConvProblem p = grouped_conv();
    kbench::data::HostTensors t = kbench::data::make_host_tensors(p, 1);
    CHECK(t.input.size() == 2u * 4 * 20 * 20);
    CHECK(t.weight.size() == 6u * 2 * 9);
    CHECK(t.bias.size() == 6u);
    p.bias = false;
    CHECK(kbench::data::make_host_tensors(p, 1).bias.empty());
  }

  TEST_CASE("values lie in PyTorch's ranges and fill them") {
    ConvProblem p = grouped_conv();
    p.in_channels = p.out_channels = 64;  // enough weights to see the whole range
    p.groups = 1;
    const kbench::data::HostTensors t = kbench::data::make_host_tensors(p, 42);
    const float bound = kbench::data::init_bound(p);
    CHECK(std::all_of(t.input.begin(), t.input.end(), [](float x) { return x >= 0.0f && x < 1.0f; }));
    CHECK(std::all_of(t.weight.begin(), t.weight.end(), [bound](float w) { return std::abs(w) <= bound; }));
    CHECK(std::all_of(t.bias.begin(), t.bias.end(), [bound](float b) { return std::abs(b) <= bound; }));
    const auto [lo, hi] = std::minmax_element(t.weight.begin(), t.weight.end());
    CHECK(*lo < -0.99f * bound);
    CHECK(*hi > 0.99f * bound);
    const double input_mean =
        std::accumulate(t.input.begin(), t.input.end(), 0.0) / static_cast<double>(t.input.size());
    CHECK(input_mean == doctest::Approx(0.5).epsilon(0.01));
    const double weight_mean =
        std::accumulate(t.weight.begin(), t.weight.end(), 0.0) / static_cast<double>(t.weight.size());
    CHECK(std::abs(weight_mean) < 0.02 * bound);
  }

  TEST_CASE("the same seed gives the same values, another seed different ones") {
    const ConvProblem p = grouped_conv();
    const kbench::data::HostTensors a = kbench::data::make_host_tensors(p, 7);
    const kbench::data::HostTensors again = kbench::data::make_host_tensors(p, 7);
    const kbench::data::HostTensors b = kbench::data::make_host_tensors(p, 8);
    CHECK(a.input == again.input);
    CHECK(a.weight == again.weight);
    CHECK(a.bias == again.bias);
    CHECK(count_different(a.input, b.input) > a.input.size() * 99 / 100);
    CHECK(count_different(a.weight, b.weight) > a.weight.size() * 9 / 10);
    CHECK(count_different(a.bias, b.bias) > 0);
  }

  TEST_CASE("each element can be regenerated alone, roles draw independent streams") {
    const ConvProblem p = grouped_conv();
    const kbench::data::HostTensors t = kbench::data::make_host_tensors(p, 3);
    for (std::size_t i = 0; i < t.input.size(); ++i)
      REQUIRE(kbench::data::seeded_value(p, 3, TensorRole::input, static_cast<std::int64_t>(i)) == t.input[i]);
    for (std::size_t i = 0; i < t.weight.size(); ++i)
      REQUIRE(kbench::data::seeded_value(p, 3, TensorRole::weight, static_cast<std::int64_t>(i)) == t.weight[i]);
    for (std::size_t i = 0; i < t.bias.size(); ++i)
      REQUIRE(kbench::data::seeded_value(p, 3, TensorRole::bias, static_cast<std::int64_t>(i)) == t.bias[i]);
    // weight = (2u - 1) * bound with u the role's own uniform draw, not the input's
    const float bound = kbench::data::init_bound(p);
    std::size_t same = 0;
    for (std::size_t i = 0; i < t.weight.size(); ++i) same += t.weight[i] == (2.0f * t.input[i] - 1.0f) * bound;
    CHECK(same < 3);
  }
}
