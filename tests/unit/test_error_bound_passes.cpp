// The error bound on the backward passes (verify/error_bound.hpp with problem/conv_pass.hpp's reduction
// lengths): an fp32 computation in the plainest order (one running fp32 sum per element, the worst order
// for long reductions) passes, and the bugs a backward kernel makes fail: a tap dropped, dy shifted by
// one, dy read from another group's channel, grad_bias forgotten.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/error_bound.hpp"

using namespace kbench;

namespace {

struct Expected {
  std::vector<double> values, abs_sums, root_sum_squares;
  ExpectedValues view() const { return {values, abs_sums, root_sum_squares}; }
};

Expected expected_for(const ConvProblem& p, const data::HostTensors& t) {
  using reference::Terms;
  Expected e{reference::convolve(p, t), reference::convolve(p, reference::tensors_for_terms(t, Terms::magnitude)),
             reference::convolve(p, reference::tensors_for_terms(t, Terms::square))};
  for (double& v : e.root_sum_squares) v = std::sqrt(v);
  return e;
}

std::vector<float> rounded(const std::vector<double>& values) {
  return std::vector<float>(values.begin(), values.end());
}

// grad_weight (then grad_bias) of a 1-D conv with one fp32 running sum per element, n then position.
std::vector<float> weight_grad_fp32_sequential(const ConvProblem& p, const data::HostTensors& t) {
  const std::int64_t lout = p.output()[0], lin = p.input[0], k = p.kernel[0];
  const std::int64_t cin_g = p.in_channels_per_group(), cout_g = p.out_channels_per_group();
  std::vector<float> out;
  for (std::int64_t co = 0; co < p.out_channels; ++co)
    for (std::int64_t c = 0; c < cin_g; ++c)
      for (std::int64_t tap = 0; tap < k; ++tap) {
        const std::int64_t ci = co / cout_g * cin_g + c;
        float sum = 0;
        for (std::int64_t n = 0; n < p.batch; ++n)
          for (std::int64_t o = 0; o < lout; ++o) {
            const std::int64_t i = o * p.stride[0] - p.pad_before[0] + tap * p.dilation[0];
            if (i < 0 || i >= lin) continue;
            sum += t.grad_output[static_cast<std::size_t>((n * p.out_channels + co) * lout + o)] *
                   t.input[static_cast<std::size_t>((n * p.in_channels + ci) * lin + i)];
          }
        out.push_back(sum);
      }
  for (std::int64_t co = 0; p.bias && co < p.out_channels; ++co) {
    float sum = 0;
    for (std::int64_t n = 0; n < p.batch; ++n)
      for (std::int64_t o = 0; o < lout; ++o) sum += t.grad_output[static_cast<std::size_t>((n * p.out_channels + co) * lout + o)];
    out.push_back(sum);
  }
  return out;
}

// A long 1-D grouped reduction: each grad_weight element sums N x L_out = 8 x 2500 = 20,000 products.
ConvProblem long_wgrad_problem() {
  ConvProblem p = ConvProblem{.op = OpKind::conv, .spatial_rank = 1, .batch = 8, .in_channels = 8, .out_channels = 8,
                              .groups = 2, .input = Dims{{5003, 1, 1}}, .kernel = Dims{{5, 1, 1}},
                              .stride = Dims{{2, 1, 1}}, .pad_before = Dims{{1, 0, 0}}, .pad_after = Dims{{1, 0, 0}},
                              .bias = true};
  p.pass = Pass::backward_weights;
  return p;
}

Comparison check(const ConvProblem& p, const std::vector<float>& got, const Expected& e) {
  return compare_outputs(got, e.view(), error_bound_for(p, MathMode::fp32));
}

}  // namespace

TEST_SUITE("verify") {
  TEST_CASE("backward_weights: a sequential fp32 sum of 20,000 terms passes, its bugs fail") {
    const ConvProblem p = long_wgrad_problem();
    REQUIRE(reduction_length(p) == 8 * p.output()[0]);
    const data::HostTensors t = data::make_host_tensors(p, 19);
    const Expected e = expected_for(p, t);

    const Comparison fp32 = check(p, weight_grad_fp32_sequential(p, t), e);
    CAPTURE(fp32.max_error_ratio);
    CHECK(fp32.passed());
    CHECK(fp32.max_error_ratio < 0.5);

    // dy shifted by one position along L.
    data::HostTensors shifted = t;
    std::rotate(shifted.grad_output.begin(), shifted.grad_output.begin() + 1, shifted.grad_output.end());
    CHECK(check(p, rounded(reference::convolve(p, shifted)), e).mismatches > 0);

    // dy of channel 0 read from channel 4 (the other group's first).
    data::HostTensors mixed = t;
    const std::int64_t lout = p.output()[0];
    for (std::int64_t n = 0; n < p.batch; ++n)
      std::copy_n(t.grad_output.begin() + (n * 8 + 4) * lout, lout, mixed.grad_output.begin() + (n * 8 + 0) * lout);
    CHECK(check(p, rounded(reference::convolve(p, mixed)), e).mismatches > 0);

    // The last batch element's products left out: a reduction cut short by one K block.
    data::HostTensors short_k = t;
    std::fill(short_k.grad_output.end() - 8 * lout, short_k.grad_output.end(), 0.0f);
    CHECK(check(p, rounded(reference::convolve(p, short_k)), e).mismatches > 0);

    // grad_bias never written: zeros where the sums belong.
    std::vector<float> no_bias = rounded(e.values);
    std::fill(no_bias.begin() + p.weight_elements(), no_bias.end(), 0.0f);
    CHECK(check(p, no_bias, e).mismatches > 0);
  }

  TEST_CASE("backward_data: the exact result passes, a dropped tap and a shifted dy fail") {
    ConvProblem p = ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 16,
                                .out_channels = 32, .input = Dims{{12, 12, 1}}, .kernel = Dims{{3, 3, 1}},
                                .stride = Dims{{2, 2, 1}}, .pad_before = Dims{{1, 1, 0}}, .pad_after = Dims{{1, 1, 0}}};
    p.pass = Pass::backward_data;
    const data::HostTensors t = data::make_host_tensors(p, 23);
    const Expected e = expected_for(p, t);
    CHECK(check(p, rounded(e.values), e).passed());

    data::HostTensors dropped = t;  // tap (1, 1) of every filter zeroed
    for (std::int64_t f = 0; f < p.out_channels * p.in_channels; ++f) dropped.weight[static_cast<std::size_t>(f * 9 + 4)] = 0;
    CHECK(check(p, rounded(reference::convolve(p, dropped)), e).mismatches > 0);

    data::HostTensors shifted = t;
    std::rotate(shifted.grad_output.begin(), shifted.grad_output.begin() + 1, shifted.grad_output.end());
    CHECK(check(p, rounded(reference::convolve(p, shifted)), e).mismatches > 0);
  }
}
