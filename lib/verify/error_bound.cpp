#include "verify/error_bound.hpp"

#include <fmt/format.h>

#include <cmath>

#include "problem/conv_pass.hpp"

namespace kbench {

namespace {

// Over every summation order and operand rounding tests/unit/test_error_bound.cpp simulates, the worst
// element needs lambda of about 1 (see that test's table); 4x margin for orders it does not simulate.
constexpr double kLambda = 4.0;

}  // namespace

double ErrorBound::allowed(double ref, double abs_sum, double root_sum_squares, double bias) const {
  const double once = lambda * (std::sqrt(static_cast<double>(reduction_length)) * u_accumulate * abs_sum +
                                std::sqrt(2.0) * u_operand * root_sum_squares) +
                      u_output * std::abs(ref);
  if (output_rounding == OutputRounding::once) return once;
  // The first rounding is of the convolution without its bias, ref - bias; the second rounds a value
  // within u_out of that plus the bias, hence the factor (1 + u_out) (the accumulation's share of
  // either is in `once`, with lambda's margin).
  return once + u_output * (1 + u_output) * std::abs(ref - bias);
}

double ErrorBound::c_uniform() const {
  const double n = static_cast<double>(reduction_length);
  return lambda * (std::sqrt(n) * u_accumulate + std::sqrt(2.0 / n) * u_operand);
}

std::string ErrorBound::describe() const {
  const std::string second_rounding =
      output_rounding == OutputRounding::bias_added_after
          ? fmt::format(" + {:.3g}*|ref - bias| (rounded before the bias is added, and after)",
                        u_output * (1 + u_output))
          : "";
  return fmt::format(
      "|got - ref| <= c*S + {:.3g}*|ref|{}, c = {:g}*(sqrt({})*{:.3g} + sqrt(2)*{:.3g}*Q/S) = {:.3g} at uniform "
      "terms",
      u_output, second_rounding, lambda, reduction_length, u_accumulate, u_operand, c_uniform());
}

double operand_roundoff(DType dtype, MathMode math) {
  if (dtype != DType::fp32) return 0;
  // TF32 operands: hardware fed raw fp32 truncates to 10 mantissa bits (2^-10); a converted one rounds
  // to nearest (2^-11). The bound takes the truncation.
  if (math == MathMode::tf32) return 0x1p-10;
  // Our strict-fp32 GEMMs may run 3xTF32: test_cuda_tf32_bits.cpp bounds its split's product error by 2^-19.
  return 0x1p-19;
}

bool adds_bias(const ConvProblem& p) { return p.bias && p.pass == Pass::forward; }

ErrorBound error_bound_for(const ConvProblem& p, MathMode math, OutputRounding rounding) {
  ErrorBound bound;
  bound.lambda = kLambda;
  bound.reduction_length = reduction_length(p);
  bound.u_accumulate = unit_roundoff(DType::fp32);
  bound.u_operand = operand_roundoff(p.dtype, math);
  bound.u_output = unit_roundoff(p.dtype);
  bound.output_rounding = adds_bias(p) ? rounding : OutputRounding::once;
  return bound;
}

}  // namespace kbench
