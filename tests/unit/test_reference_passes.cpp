// A problem's pass decides what the reference computes (problem/conv_pass.hpp): the entry points every
// caller uses (convolve, convolve_at, convolve_at_seeded) must agree with each other for every pass,
// and the backward passes must be the adjoints of the forward pass on kbench's own seeded operands.
// Also the pass's shapes, FLOPs, bytes, reduction length and check points.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem/problem_metrics.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "test_seed.hpp"
#include "verify/check_points.hpp"
#include "verify/error_bound.hpp"

using namespace kbench;
using kbench::testing::test_seed;

namespace {

ConvProblem with_pass(ConvProblem p, Pass pass) {
  p.pass = pass;
  return p;
}

// Sums of the same products in other orders: fp64 rounding apart. `relative` is looser where one side
// squares in fp32 (tensors_for_terms) and the other in fp64 (the seeded values).
void require_close(const std::vector<double>& got, const std::vector<double>& want, double relative = 1e-12) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    REQUIRE(std::abs(got[i] - want[i]) <= relative * (1 + std::abs(want[i])));
  }
}

double dot(const std::vector<double>& a, const std::vector<float>& b, std::size_t count) {
  double sum = 0;
  for (std::size_t i = 0; i < count; ++i) sum += a[i] * static_cast<double>(b[i]);
  return sum;
}

// Random problems of every op and rank, some with bias (conv_transposes whose output padding reaches the
// stride among them: their grad_input is a crop of dy's forward conv).
std::vector<ConvProblem> random_problems(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ConvProblem> problems;
  for (int trial = 0; static_cast<int>(problems.size()) < count; ++trial) {
    const OpKind op = trial % 2 ? OpKind::conv_transpose : OpKind::conv;
    ConvProblem p = gpu_tests::random_problem(rng, op, 1 + trial % 3, gpu_tests::pick(rng, 1, 3),
                                              gpu_tests::pick(rng, 1, 3), gpu_tests::small_shapes());
    p.bias = trial % 3 == 0;
    problems.push_back(p);
  }
  return problems;
}

}  // namespace

TEST_SUITE("reference") {
  TEST_CASE("every pass: the whole tensor, chosen elements and seeded elements agree") {
    const std::uint64_t seed = test_seed(71);
    for (const ConvProblem& forward : random_problems(24, seed)) {
      for (const Pass pass : {Pass::forward, Pass::backward_data, Pass::backward_weights}) {
        const ConvProblem p = with_pass(forward, pass);
        CAPTURE(describe(p));
        const data::HostTensors tensors = data::make_host_tensors(p, seed);
        const std::vector<double> whole = reference::convolve(p, tensors);
        REQUIRE(static_cast<std::int64_t>(whole.size()) == computed_elements(p));
        const std::vector<std::int64_t> points = choose_check_points(p, 40, seed);
        std::vector<double> picked;
        for (const std::int64_t i : points) picked.push_back(whole[static_cast<std::size_t>(i)]);
        require_close(reference::convolve_at(p, tensors, points), picked);
        require_close(reference::convolve_at_seeded(p, seed, points, reference::Terms::value), picked);
        // |terms| and squares: the same computation on transformed operands, seeded or from the host.
        for (const auto terms : {reference::Terms::magnitude, reference::Terms::square})
          require_close(reference::convolve_at_seeded(p, seed, points, terms),
                        reference::convolve_at(p, reference::tensors_for_terms(tensors, terms), points), 1e-6);
      }
    }
  }

  TEST_CASE("the seeded backward passes are the forward pass's adjoints, bias included") {
    // <conv(x, w) + b, dy> = <x, grad_input> + <b, grad_bias> = <w, grad_weight> + <b, grad_bias>, each
    // side from the operands kbench draws for its pass (x, w, b and dy have the same values in every pass).
    const std::uint64_t seed = test_seed(72);
    for (const ConvProblem& p : random_problems(30, seed)) {
      CAPTURE(describe(p));
      const ConvProblem dgrad = with_pass(p, Pass::backward_data), wgrad = with_pass(p, Pass::backward_weights);
      const data::HostTensors fwd = data::make_host_tensors(p, seed);
      const data::HostTensors bwd = data::make_host_tensors(wgrad, seed);
      REQUIRE(bwd.input == fwd.input);
      const std::vector<double> y = reference::convolve(p, fwd);
      const std::vector<double> dx = reference::convolve(dgrad, data::make_host_tensors(dgrad, seed));
      const std::vector<double> dw_db = reference::convolve(wgrad, bwd);
      const auto weights = static_cast<std::size_t>(p.weight_elements());
      double b_db = 0;
      for (std::size_t c = 0; c < fwd.bias.size(); ++c) b_db += dw_db[weights + c] * static_cast<double>(fwd.bias[c]);
      const double y_dy = dot(y, bwd.grad_output, y.size());
      const double scale = std::abs(y_dy) + 1;
      CHECK(std::abs(dot(dx, fwd.input, dx.size()) + b_db - y_dy) <= 1e-9 * scale);
      CHECK(std::abs(dot(dw_db, fwd.weight, weights) + b_db - y_dy) <= 1e-9 * scale);
    }
  }

  TEST_CASE("a planted slip in a backward operand breaks the adjoint identity") {
    const std::uint64_t seed = test_seed(73);
    int tried = 0;
    for (const ConvProblem& p : random_problems(40, seed)) {
      if (p.transposed() || p.output_elements() < 4) continue;
      CAPTURE(describe(p));
      ConvProblem no_bias = p;
      no_bias.bias = false;
      const data::HostTensors fwd = data::make_host_tensors(no_bias, seed);
      data::HostTensors bwd = data::make_host_tensors(with_pass(no_bias, Pass::backward_weights), seed);
      const std::vector<double> y = reference::convolve(no_bias, fwd);
      // Windows that see only padding leave y, and every product of dy, zero: nothing a slip could change.
      if (std::count(y.begin(), y.end(), 0.0) > 0) continue;
      const double y_dy = dot(y, bwd.grad_output, bwd.grad_output.size());
      std::rotate(bwd.grad_output.begin(), bwd.grad_output.begin() + 1, bwd.grad_output.end());  // dy shifted by one
      const std::vector<double> dw = reference::convolve(with_pass(no_bias, Pass::backward_weights), bwd);
      CHECK(std::abs(dot(dw, fwd.weight, dw.size()) - y_dy) > 1e-6 * (std::abs(y_dy) + 1));
      ++tried;
    }
    CHECK(tried >= 3);
  }
}

TEST_SUITE("problem") {
  TEST_CASE("each pass's computed tensor, reduction length, FLOPs and bytes") {
    ConvProblem p = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 4, .out_channels = 6,
                                .groups = 2, .input = Dims{{9, 7, 1}}, .kernel = Dims{{3, 2, 1}},
                                .stride = Dims{{2, 1, 1}}, .dilation = Dims{{1, 2, 1}}, .pad_before = Dims{{1, 0, 0}},
                                .bias = true};
    const ConvProblem dgrad = with_pass(p, Pass::backward_data), wgrad = with_pass(p, Pass::backward_weights);
    CHECK(computed_elements(p) == p.output_elements());
    CHECK(computed_elements(dgrad) == p.input_elements());
    CHECK(computed_elements(wgrad) == p.weight_elements() + 6);
    CHECK(computed_extents(wgrad) == std::vector<std::int64_t>{6, 2, 3, 2});
    CHECK(computed_extents(dgrad) == std::vector<std::int64_t>{2, 4, 9, 7});
    CHECK(computed_bias_elements(wgrad) == 6);
    CHECK(computed_bias_elements(p) == 0);
    CHECK(reduction_length(p) == 2 * 6 + 1);
    CHECK(reduction_length(dgrad) == 3 * 6);
    CHECK(reduction_length(wgrad) == 2 * p.output_spatial_volume());
    CHECK(error_bound_for(wgrad, MathMode::fp32).reduction_length == reduction_length(wgrad));

    const ProblemMetrics f = compute_metrics(p), d = compute_metrics(dgrad), w = compute_metrics(wgrad);
    CHECK(d.flops == f.flops - static_cast<double>(p.output_elements()));  // no bias term in grad_input
    CHECK(w.flops == f.flops);                                             // grad_bias sums what the bias added
    CHECK(d.bias_bytes == 0);
    CHECK(d.bytes() == f.bytes() - f.bias_bytes);
    CHECK(w.bytes() == f.bytes());
    CHECK(describe(dgrad).ends_with(" backward_data"));
  }

  TEST_CASE("check points of grad_weight reach its corners and grad_bias") {
    ConvProblem p = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 4, .in_channels = 64,
                                .out_channels = 64, .input = Dims{{30, 30, 1}}, .kernel = Dims{{3, 3, 1}},
                                .pad_before = Dims{{1, 1, 0}}, .pad_after = Dims{{1, 1, 0}}, .bias = true};
    p.pass = Pass::backward_weights;
    const auto points = choose_check_points(p, 256, 5);
    const std::int64_t weights = p.weight_elements();
    CHECK(std::count_if(points.begin(), points.end(), [&](std::int64_t i) { return i >= weights; }) >= 2);
    CHECK(std::find(points.begin(), points.end(), weights - 1) != points.end());  // last tap of the last filter
    CHECK(std::find(points.begin(), points.end(), computed_elements(p) - 1) != points.end());
    CHECK(points.back() < computed_elements(p));
  }
}
