// The error bound of verify/error_bound.hpp against the arithmetic backends really do: every output
// element of several problems summed in fp32 in the orders GPU kernels use (sequential either way,
// K-blocked, split across lanes, pairwise), with TF32 operands (truncated and rounded) and the 3xTF32
// split, and fp16/bf16 data with fp32 accumulation and the output rounded to its dtype. Every one must
// stay well inside the bound; a dropped tap, a wrong bias and a window shifted by one must not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "data/host_tensors.hpp"
#include "problem/conv_geometry.hpp"
#include "problem_factory.hpp"
#include "reference/reference_conv.hpp"
#include "verify/compare.hpp"
#include "verify/error_bound.hpp"

using namespace kbench;

namespace {

struct Term {
  float x = 0;
  float w = 0;
};

// One output element's product terms, in the reference's order (input channel, then taps), and its bias.
struct ElementTerms {
  std::vector<Term> terms;
  float bias = 0;
};

// The product terms of every output element of a rank-2 problem, with `shift` added to the input's W
// coordinate (0: the convolution; 1: a window off by one) and tap `dropped` (-1: none) left out.
std::vector<ElementTerms> collect_terms(const ConvProblem& p, const data::HostTensors& t, int shift = 0,
                                        std::int64_t dropped = -1) {
  const Dims out = p.output();
  std::vector<ElementTerms> elements;
  for (std::int64_t flat = 0; flat < p.output_elements(); ++flat) {
    const geometry::TensorCoord o = geometry::unflatten(flat, p.out_channels, out, 2);
    ElementTerms e;
    e.bias = p.bias ? t.bias[static_cast<std::size_t>(o.c)] : 0.0f;
    const std::int64_t group = o.c / p.out_channels_per_group();
    for (std::int64_t c = 0; c < p.in_channels_per_group(); ++c) {
      const std::int64_t ci = group * p.in_channels_per_group() + c;
      for (std::int64_t kh = 0; kh < p.kernel[0]; ++kh)
        for (std::int64_t kw = 0; kw < p.kernel[1]; ++kw) {
          if (c == 0 && kh * p.kernel[1] + kw == dropped) continue;
          std::int64_t ih = 0, iw = 0;
          if (p.transposed()) {
            if (!geometry::transposed_tap_source(p, 0, o.pos[0], kh, &ih) ||
                !geometry::transposed_tap_source(p, 1, o.pos[1], kw, &iw))
              continue;
          } else {
            ih = geometry::conv_input_coord(p, 0, o.pos[0], kh);
            iw = geometry::conv_input_coord(p, 1, o.pos[1], kw);
          }
          iw += shift;
          if (ih < 0 || ih >= p.input[0] || iw < 0 || iw >= p.input[1]) continue;
          const std::int64_t x_index = ((o.n * p.in_channels + ci) * p.input[0] + ih) * p.input[1] + iw;
          const std::int64_t w_index =
              p.transposed() ? geometry::weight_index(p, ci, o.c % p.out_channels_per_group(), Dims{{kh, kw, 0}})
                             : geometry::weight_index(p, o.c, c, Dims{{kh, kw, 0}});
          e.terms.push_back({t.input[static_cast<std::size_t>(x_index)], t.weight[static_cast<std::size_t>(w_index)]});
        }
    }
    elements.push_back(std::move(e));
  }
  return elements;
}

float tf32_truncated(float v) { return float_from_bits(float_bits(v) & 0xffffe000u); }
float tf32_rounded(float v) { return float_from_bits(shift_right_rounded(float_bits(v), 13) << 13); }

using Product = std::function<float(float, float, float)>;  // acc + x * w, as a backend forms it
const Product kFma = [](float x, float w, float acc) { return std::fma(x, w, acc); };
const Product kTf32Truncated = [](float x, float w, float acc) {
  return std::fma(tf32_truncated(x), tf32_truncated(w), acc);
};
const Product kTf32Rounded = [](float x, float w, float acc) {
  return std::fma(tf32_rounded(x), tf32_rounded(w), acc);
};
const Product k3xTf32 = [](float x, float w, float acc) {
  const float xb = tf32_rounded(x), wb = tf32_rounded(w);
  const float xs = tf32_rounded(x - xb), ws = tf32_rounded(w - wb);
  return std::fma(xb, wb, std::fma(xb, ws, std::fma(xs, wb, acc)));
};

// Summation orders: each sums the terms from index `begin` to `end` with `product` into fp32.
float sequential(const std::vector<Term>& t, std::size_t begin, std::size_t end, const Product& product) {
  float acc = 0;
  for (std::size_t i = begin; i < end; ++i) acc = product(t[i].x, t[i].w, acc);
  return acc;
}

float reversed(const std::vector<Term>& t, const Product& product) {
  float acc = 0;
  for (std::size_t i = t.size(); i-- > 0;) acc = product(t[i].x, t[i].w, acc);
  return acc;
}

float blocked(const std::vector<Term>& t, std::size_t block, const Product& product) {
  float acc = 0;
  for (std::size_t b = 0; b < t.size(); b += block) acc += sequential(t, b, std::min(t.size(), b + block), product);
  return acc;
}

float lanes(const std::vector<Term>& t, std::size_t count, const Product& product) {  // split-K across lanes
  std::vector<float> partial(count, 0.0f);
  for (std::size_t i = 0; i < t.size(); ++i) partial[i % count] = product(t[i].x, t[i].w, partial[i % count]);
  float acc = 0;
  for (float v : partial) acc += v;
  return acc;
}

float pairwise(const std::vector<Term>& t, std::size_t begin, std::size_t end, const Product& product) {
  if (end - begin <= 2) return sequential(t, begin, end, product);
  const std::size_t mid = begin + (end - begin) / 2;
  return pairwise(t, begin, mid, product) + pairwise(t, mid, end, product);
}

using Scheme = std::function<float(const ElementTerms&)>;

struct NamedScheme {
  std::string name;
  Scheme scheme;
};

std::vector<NamedScheme> schemes_for(MathMode math) {
  std::vector<Product> products =
      math == MathMode::tf32 ? std::vector<Product>{kTf32Truncated, kTf32Rounded} : std::vector<Product>{kFma, k3xTf32};
  std::vector<NamedScheme> out;
  for (std::size_t k = 0; k < products.size(); ++k) {
    const Product product = products[k];
    const std::string tag =
        math == MathMode::tf32 ? (k == 0 ? "tf32-trunc " : "tf32-rn ") : (k == 0 ? "ffma " : "3xtf32 ");
    out.push_back({tag + "sequential, bias last",
                   [=](const ElementTerms& e) { return sequential(e.terms, 0, e.terms.size(), product) + e.bias; }});
    out.push_back({tag + "reversed, bias first", [=](const ElementTerms& e) {
                     std::vector<Term> t = e.terms;
                     t.insert(t.end(), Term{1.0f, e.bias});
                     return reversed(t, product);
                   }});
    out.push_back(
        {tag + "K blocks of 32", [=](const ElementTerms& e) { return blocked(e.terms, 32, product) + e.bias; }});
    out.push_back({tag + "8 lanes", [=](const ElementTerms& e) { return lanes(e.terms, 8, product) + e.bias; }});
    out.push_back({tag + "pairwise",
                   [=](const ElementTerms& e) { return pairwise(e.terms, 0, e.terms.size(), product) + e.bias; }});
  }
  return out;
}

struct Case {
  std::string name;
  ConvProblem problem;
};

std::vector<Case> cases() {
  const Dims one{{1, 1, 1}}, zero{{0, 0, 0}};
  return {
      {"3x3, 4 channels (n 37)", ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 2, .in_channels = 4,
                                             .out_channels = 6, .input = Dims{{9, 9, 1}}, .kernel = Dims{{3, 3, 1}},
                                             .stride = one, .dilation = one, .pad_before = Dims{{1, 1, 0}},
                                             .pad_after = Dims{{1, 1, 0}}, .bias = true}},
      {"11x11 stride 4, 3 channels (n 364, problem 50's layer)",
       ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 3, .out_channels = 4,
                   .input = Dims{{35, 35, 1}}, .kernel = Dims{{11, 11, 1}}, .stride = Dims{{4, 4, 1}}, .dilation = one,
                   .pad_before = Dims{{2, 2, 0}}, .pad_after = Dims{{2, 2, 0}}, .bias = true}},
      {"3x3, 256 channels (n 2305)",
       ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 256, .out_channels = 3,
                   .input = Dims{{6, 6, 1}}, .kernel = Dims{{3, 3, 1}}, .stride = one, .dilation = one,
                   .pad_before = zero, .pad_after = zero, .bias = true}},
      {"depthwise 5x5 dilated (n 26)", ConvProblem{.op = OpKind::conv, .spatial_rank = 2, .batch = 1, .in_channels = 8,
                                                   .out_channels = 8, .groups = 8, .input = Dims{{12, 12, 1}},
                                                   .kernel = Dims{{5, 5, 1}}, .stride = one,
                                                   .dilation = Dims{{2, 2, 1}}, .pad_before = Dims{{2, 2, 0}},
                                                   .pad_after = Dims{{2, 2, 0}}, .bias = true}},
      {"transposed 4x4 stride 2, 64 channels",
       ConvProblem{.op = OpKind::conv_transpose, .spatial_rank = 2, .batch = 1, .in_channels = 64, .out_channels = 4,
                   .input = Dims{{5, 5, 1}}, .kernel = Dims{{4, 4, 1}}, .stride = Dims{{2, 2, 1}}, .dilation = one,
                   .pad_before = Dims{{1, 1, 0}}, .pad_after = Dims{{1, 1, 0}}, .bias = true}},
  };
}

struct Expected {
  std::vector<double> values, abs_sums, root_sum_squares, biases;
  ExpectedValues view() const { return {values, abs_sums, root_sum_squares, biases}; }
};

Expected expected_for(const ConvProblem& p, const data::HostTensors& t) {
  Expected e;
  for (std::int64_t flat = 0; p.bias && flat < p.output_elements(); ++flat)
    e.biases.push_back(t.bias[static_cast<std::size_t>((flat / p.output_spatial_volume()) % p.out_channels)]);
  e.values = reference::convolve(p, t);
  e.abs_sums = reference::convolve(p, reference::tensors_for_terms(t, reference::Terms::magnitude));
  e.root_sum_squares = reference::convolve(p, reference::tensors_for_terms(t, reference::Terms::square));
  for (double& q : e.root_sum_squares) q = std::sqrt(q);
  return e;
}

std::vector<float> run_scheme(const std::vector<ElementTerms>& elements, const Scheme& scheme, DType dtype) {
  std::vector<float> out;
  for (const ElementTerms& e : elements) out.push_back(round_to_dtype(dtype, scheme(e)));
  return out;
}

}  // namespace

TEST_CASE("every summation order and operand rounding stays well inside the bound") {
  double worst = 0;
  std::string worst_where;
  for (DType dtype : {DType::fp32, DType::fp16, DType::bf16}) {
    for (MathMode math : {MathMode::fp32, MathMode::tf32}) {
      if (dtype != DType::fp32 && math == MathMode::tf32) continue;  // half products are exact in either mode
      for (const Case& c : cases()) {
        ConvProblem p = c.problem;
        p.dtype = dtype;
        const data::HostTensors t = data::make_host_tensors(p, 20261202);
        const Expected expected = expected_for(p, t);
        const auto elements = collect_terms(p, t);
        const ErrorBound bound = error_bound_for(p, math);
        for (const NamedScheme& s : schemes_for(dtype == DType::fp32 ? math : MathMode::fp32)) {
          const Comparison cmp = compare_outputs(run_scheme(elements, s.scheme, dtype), expected.view(), bound);
          INFO(to_string(dtype), " ", to_string(math), ", ", c.name, ", ", s.name, ": worst error at ",
               cmp.max_error_ratio, " of the bound");
          CHECK(cmp.passed());
          // The accumulation's part keeps a margin of at least 2 over every order simulated here. Rounding
          // the output to fp16 or bf16 may take all of its u_out * |ref| (half an ulp, deterministic): those
          // dtypes' worst elements come near the bound by design, and still within it.
          if (dtype == DType::fp32) CHECK(cmp.max_error_ratio < 0.5);
          if (dtype == DType::fp32 && cmp.max_error_ratio > worst) {
            worst = cmp.max_error_ratio;
            worst_where =
                std::string(to_string(dtype)) + " " + std::string(to_string(math)) + ", " + c.name + ", " + s.name;
          }
        }
      }
    }
  }
  MESSAGE("worst simulated fp32 error: ", worst, " of the bound (", worst_where, ")");
}

TEST_CASE("a dropped tap, a wrong bias and a window shifted by one fail the bound") {
  for (DType dtype : {DType::fp32, DType::fp16, DType::bf16}) {
    for (MathMode math : {MathMode::fp32, MathMode::tf32}) {
      for (const Case& c : cases()) {
        ConvProblem p = c.problem;
        p.dtype = dtype;
        const data::HostTensors t = data::make_host_tensors(p, 7);
        const Expected expected = expected_for(p, t);
        const NamedScheme plain = schemes_for(math).front();
        // Also by the bound of a backend that rounds before adding the bias: wider, and still this tight.
        for (const OutputRounding rounding : {OutputRounding::once, OutputRounding::bias_added_after}) {
          const ErrorBound bound = error_bound_for(p, math, rounding);
          INFO(to_string(dtype), " ", to_string(math), ", ", c.name, ", ", bound.describe());

          const auto dropped = run_scheme(collect_terms(p, t, 0, p.kernel_volume() / 2), plain.scheme, dtype);
          CHECK_FALSE(compare_outputs(dropped, expected.view(), bound).passed());

          const auto shifted = run_scheme(collect_terms(p, t, 1), plain.scheme, dtype);
          CHECK_FALSE(compare_outputs(shifted, expected.view(), bound).passed());

          auto wrong_bias = collect_terms(p, t);
          for (std::size_t i = 0; i < wrong_bias.size(); ++i) {
            const auto channel = static_cast<std::size_t>((i / static_cast<std::size_t>(p.output_spatial_volume())) %
                                                          static_cast<std::size_t>(p.out_channels));
            wrong_bias[i].bias = t.bias[(channel + 1) % t.bias.size()];
          }
          CHECK_FALSE(compare_outputs(run_scheme(wrong_bias, plain.scheme, dtype), expected.view(), bound).passed());
        }
      }
    }
  }
}

// cuDNN's legacy path (the convolution, then cudnnAddTensor) and PyTorch's F.convNd on cuDNN: the fp32
// sum rounded to the dtype, then the bias added in fp32 (the caller rounds that sum again).
float bias_added_after_rounding(const ElementTerms& e, const Scheme& sum, DType dtype) {
  ElementTerms unbiased = e;
  unbiased.bias = 0;
  return round_to_dtype(dtype, sum(unbiased)) + e.bias;
}

TEST_CASE("a bias added after rounding: inside the bound that counts it, outside the one-rounding bound") {
  const std::vector<Case> all = cases();
  // Problem 50's layer (n 364) and a depthwise one (n 26), where the bias is large beside the sum.
  for (const Case& c : {all[1], all[3]}) {
    for (DType dtype : {DType::fp16, DType::bf16}) {
      ConvProblem p = c.problem;
      p.dtype = dtype;
      const data::HostTensors t = data::make_host_tensors(p, 20261202);
      const Expected expected = expected_for(p, t);
      const auto elements = collect_terms(p, t);
      const ErrorBound once = error_bound_for(p, MathMode::fp32);
      const ErrorBound declared = error_bound_for(p, MathMode::fp32, OutputRounding::bias_added_after);
      REQUIRE(declared.output_rounding == OutputRounding::bias_added_after);
      for (const NamedScheme& s : schemes_for(MathMode::fp32)) {
        // run_scheme rounds the sum of the rounded convolution and the bias: the second rounding.
        const std::vector<float> got = run_scheme(
            elements, [&](const ElementTerms& e) { return bias_added_after_rounding(e, s.scheme, dtype); }, dtype);
        const Comparison by_once = compare_outputs(got, expected.view(), once);
        const Comparison by_declared = compare_outputs(got, expected.view(), declared);
        INFO(to_string(dtype), ", ", c.name, ", ", s.name, ": ", by_once.mismatches, " of ", by_once.checked,
             " outside the one-rounding bound (worst ", by_once.max_error_ratio, "); worst ",
             by_declared.max_error_ratio, " of the declared bound");
        CHECK_FALSE(by_once.passed());
        CHECK(by_declared.passed());
        if (s.name == "ffma sequential, bias last")
          MESSAGE(to_string(dtype), ", ", c.name, ": ", by_once.mismatches, " of ", by_once.checked,
                  " outside the one-rounding bound, worst at ", by_once.max_error_ratio, " of it; worst at ",
                  by_declared.max_error_ratio, " of the declared bound");
      }
    }
  }
}

TEST_CASE("a bound counting a rounding before the bias needs every element's bias, and only with a bias") {
  ConvProblem p = cases()[1].problem;
  p.dtype = DType::fp16;
  const ErrorBound declared = error_bound_for(p, MathMode::fp32, OutputRounding::bias_added_after);
  const std::vector<double> values{1.0}, sums{2.0}, roots{1.0};
  CHECK_THROWS_AS(compare_outputs(std::vector<float>{1.0f}, ExpectedValues{values, sums, roots}, declared),
                  std::invalid_argument);
  // ref 1 made of a convolution of -3 and a bias of 4: the first rounding is of the -3.
  CHECK(declared.allowed(1.0, 0.0, 0.0, 4.0) == doctest::Approx(0x1p-11 * 1.0 + 0x1p-11 * (1 + 0x1p-11) * 3.0));
  CHECK(declared.describe().find("|ref - bias|") != std::string::npos);
  // Nothing is added after rounding where the computed tensor has no bias: one rounding.
  p.bias = false;
  CHECK(error_bound_for(p, MathMode::fp32, OutputRounding::bias_added_after).output_rounding == OutputRounding::once);
  p.bias = true;
  p.pass = Pass::backward_data;
  CHECK(error_bound_for(p, MathMode::fp32, OutputRounding::bias_added_after).output_rounding == OutputRounding::once);
  // The biases kbench's checks hand the bound are the reference's: the seeded bias of each element's channel.
  p.pass = Pass::forward;
  const data::HostTensors t = data::make_host_tensors(p, 99);
  const std::vector<std::int64_t> points{0, p.output_spatial_volume() * 3 + 5, p.output_elements() - 1};
  const std::vector<double> biases = biases_at(p, 99, points);
  REQUIRE(biases.size() == 3);
  CHECK(biases[0] == t.bias[0]);
  CHECK(biases[1] == t.bias[3]);
  CHECK(biases[2] == t.bias[static_cast<std::size_t>(p.out_channels - 1)]);
  CHECK(biases_at(p, 99, {}).size() == static_cast<std::size_t>(p.output_elements()));
}

TEST_CASE("the bound's parts: reduction length, roundoffs, and the printed formula") {
  ConvProblem p = cases()[1].problem;
  const ErrorBound fp32 = error_bound_for(p, MathMode::fp32);
  CHECK(fp32.reduction_length == 3 * 121 + 1);
  CHECK(fp32.u_accumulate == std::ldexp(1.0, -24));
  CHECK(fp32.u_operand == std::ldexp(1.0, -19));
  CHECK(error_bound_for(p, MathMode::tf32).u_operand == std::ldexp(1.0, -10));
  p.dtype = DType::fp16;
  const ErrorBound half = error_bound_for(p, MathMode::tf32);
  CHECK(half.u_operand == 0);
  CHECK(half.u_output == std::ldexp(1.0, -11));
  CHECK(half.allowed(2.0, 10.0, 1.0) ==
        doctest::Approx(half.lambda * std::sqrt(364.0) * 0x1p-24 * 10.0 + 0x1p-11 * 2.0));
  CHECK(fp32.describe().find("sqrt(364)") != std::string::npos);
}
