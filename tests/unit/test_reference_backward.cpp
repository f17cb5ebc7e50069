// The backward passes' reference (reference/backward_conv.hpp) by the adjoint identities that define
// them: for y = conv(x, w) and any dy,  <y, dy> = <x, grad_input(dy, w)> = <w, grad_weight(x, dy)>, and
// with a bias <b, grad_bias(dy)> is the bias's share of <y, dy>. Random problems of every rank, op and
// feature (groups, stride, padding, dilation, output padding), in fp64 sums of fp32 values.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "data/counter_rng.hpp"
#include "problem_factory.hpp"
#include "problem/conv_pass.hpp"
#include "reference/backward_conv.hpp"
#include "reference/reference_conv.hpp"
#include "test_seed.hpp"

using namespace kbench;

namespace {

std::vector<float> random_values(std::int64_t count, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 2.0f * data::uniform01(seed, data::TensorRole::input, i) - 1.0f;
  return v;
}

template <class A, class B>
double dot(const A& a, const B& b) {
  REQUIRE(a.size() == b.size());
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return sum;
}

double magnitude_dot(const std::vector<double>& a, const std::vector<float>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] * b[i]);
  return sum;
}

// Each side of an identity sums the same products in another order: they agree to fp64 rounding.
void check_adjoint(double lhs, double rhs, double scale) { CHECK(std::abs(lhs - rhs) <= 1e-12 * scale + 1e-300); }

}  // namespace

TEST_CASE("backward-data and backward-weights are the adjoints of the forward convolution") {
  std::mt19937_64 rng(testing::test_seed(0xbac4a2d));
  int checked = 0, cropped = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const OpKind op = trial % 2 ? OpKind::conv_transpose : OpKind::conv;
    const int rank = 1 + trial % 3;
    ConvProblem p = gpu_tests::random_problem(rng, op, rank, gpu_tests::pick(rng, 1, 3), gpu_tests::pick(rng, 1, 3),
                                              gpu_tests::small_shapes());
    p.bias = false;
    CAPTURE(trial);
    const std::uint64_t seed = static_cast<std::uint64_t>(trial) + 11;
    const data::HostTensors t{
        random_values(p.input_elements(), seed), random_values(p.weight_elements(), seed + 1000), {}};
    const std::vector<float> dy = random_values(p.output_elements(), seed + 2000);
    const std::vector<double> y = reference::convolve(p, t);
    const double forward = dot(y, dy);
    const double scale = magnitude_dot(y, dy) + 1;

    if (backward_data_support(p)) {
      const ConvProblem q = backward_data_problem(p);
      REQUIRE(q.output_elements() == p.input_elements());
      REQUIRE(q.weight_elements() == p.weight_elements());
      const std::vector<double> grad_input = reference::convolve(q, data::HostTensors{dy, t.weight, {}, {}});
      check_adjoint(forward, dot(grad_input, t.input), scale);
    } else {
      ++cropped;  // a conv_transpose whose output padding reaches its stride: the covering problem, cropped
    }
    ConvProblem backward_data = p;
    backward_data.pass = Pass::backward_data;
    const std::vector<double> grad_input =
        reference::convolve(backward_data, data::HostTensors{{}, t.weight, {}, dy});
    REQUIRE(static_cast<std::int64_t>(grad_input.size()) == p.input_elements());
    check_adjoint(forward, dot(grad_input, t.input), scale);

    const std::vector<double> grad_weight = reference::weight_grad(p, t.input, dy);
    check_adjoint(forward, dot(grad_weight, t.weight), scale);
    ++checked;
  }
  CHECK(checked == 150);
  CHECK(cropped >= 5);
}

TEST_CASE("grad_bias is grad_output summed over batch and space") {
  std::mt19937_64 rng(testing::test_seed(0xb1a5));
  for (int trial = 0; trial < 20; ++trial) {
    ConvProblem p = gpu_tests::random_problem(rng, trial % 2 ? OpKind::conv_transpose : OpKind::conv, 1 + trial % 3, 2,
                                              3, gpu_tests::small_shapes());
    p.bias = true;
    const std::vector<float> dy = random_values(p.output_elements(), 5);
    const std::vector<float> bias = random_values(p.bias_elements(), 6);
    // The bias's share of <y, dy>: y with zero input and weights is the bias broadcast.
    const data::HostTensors t{std::vector<float>(static_cast<std::size_t>(p.input_elements()), 0.0f),
                              std::vector<float>(static_cast<std::size_t>(p.weight_elements()), 0.0f), bias};
    const std::vector<double> y = reference::convolve(p, t);
    check_adjoint(dot(y, dy), dot(reference::bias_grad(p, dy), bias), magnitude_dot(y, dy) + 1);
  }
}

TEST_CASE("weight_grad_at picks the same elements as the whole gradient, and refuses bad indices") {
  std::mt19937_64 rng(testing::test_seed(0x3a7));
  const ConvProblem p = gpu_tests::random_problem(rng, OpKind::conv, 2, 3, 2, gpu_tests::small_shapes());
  const std::vector<float> x = random_values(p.input_elements(), 1);
  const std::vector<float> dy = random_values(p.output_elements(), 2);
  const std::vector<double> all = reference::weight_grad(p, x, dy);
  const std::vector<std::int64_t> picks{p.weight_elements() - 1, 0, p.weight_elements() / 2};
  const std::vector<double> some = reference::weight_grad_at(p, x, dy, picks);
  for (std::size_t i = 0; i < picks.size(); ++i) CHECK(some[i] == all[static_cast<std::size_t>(picks[i])]);
  const std::vector<std::int64_t> outside{p.weight_elements()};
  CHECK_THROWS_AS(reference::weight_grad_at(p, x, dy, outside), std::out_of_range);
  CHECK_THROWS_AS(reference::weight_grad(p, x, std::vector<float>(3)), std::invalid_argument);
}

TEST_CASE("backward-data problems: shapes, and the transposed case with no forward form") {
  ConvProblem conv = ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 2, .in_channels = 4, .out_channels = 6,
                                 .groups = 2, .input = Dims{{10, 1, 1}}, .kernel = Dims{{3, 1, 1}},
                                 .stride = Dims{{3, 1, 1}}, .pad_before = Dims{{1, 0, 0}}, .bias = true};
  const ConvProblem q = backward_data_problem(conv);
  CHECK(q.op == OpKind::conv_transpose);
  CHECK(q.in_channels == 6);
  CHECK(q.out_channels == 4);
  CHECK(q.input[0] == conv.output()[0]);
  CHECK(q.output()[0] == 10);
  CHECK(q.output_padding[0] == 2);  // the forward pass's windows reach input rows -1..7: rows 8 and 9 by none
  CHECK_FALSE(q.bias);
  ConvProblem weights_pass = conv;
  weights_pass.pass = Pass::backward_weights;
  CHECK(reduction_length(weights_pass) == 2 * conv.output()[0]);

  ConvProblem transposed = conv;
  transposed.op = OpKind::conv_transpose;
  transposed.dilation[0] = 3;
  transposed.output_padding[0] = 2;  // below stride 3: dy's forward conv gives exactly grad_input
  CHECK(backward_data_support(transposed));
  transposed.stride[0] = 2;  // still valid (below dilation 3), but dy's forward conv would give one more
  CHECK_FALSE(backward_data_support(transposed));
  CHECK_THROWS_AS(backward_data_problem(transposed), std::invalid_argument);
}
