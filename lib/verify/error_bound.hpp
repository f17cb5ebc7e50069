#pragma once
// How far a correct backend's output may be from the fp64 reference, per element, derived from the
// arithmetic rather than fixed: |got - ref| <= c * S + u_out * |ref|, with S = sum |x * w| over the
// element's terms (bias included) and
//   c = lambda * (sqrt(n) * u_acc + sqrt(2) * u_op * Q / S),    Q = sqrt(sum (x * w)^2),
// n the reduction length, u_acc the unit roundoff of the accumulation (fp32), u_op that of rounding each
// of x and w to the math used (TF32, the 3xTF32 split; 0 where products are exact in fp32, as fp16 and
// bf16 products are), u_out that of storing the output in its dtype.
//
// Why this form (docs/verification.md has the derivation): the probabilistic analysis of inner
// products (Higham and Mary, SIAM J. Sci. Comput. 41(5), 2019) bounds each term's accumulated relative
// error by lambda * sqrt(n) * u_acc with high probability, hence the first term. Operand rounding errors
// are independent per product and of either sign, so they add like a random walk over the terms'
// magnitudes, Q, not their sum S: S / Q is the effective number of terms' square root, and a
// worst-case 2 * u_op * S would hide a dropped tap of any reduction longer than about 1 / u_op.
// lambda is set with margin over what every summation order a backend may use (sequential, blocked,
// split, pairwise; FFMA, TF32 and 3xTF32 operands) produces on kbench's own seeded data, and tight
// enough that a dropped tap, a wrong bias or a shifted window fails (tests/unit/test_error_bound.cpp).
//
// A backend that adds the bias in a step of its own (cuDNN's legacy cudnnAddTensor, PyTorch's
// F.convNd on cuDNN) rounds the output twice: the convolution's fp32 sum to the dtype, then that plus
// the bias. It declares so (OutputRounding::bias_added_after) and the bound adds the first rounding's
// u_out * (1 + u_out) * |ref - bias|: the convolution's value without the bias, which may be far larger
// than |ref| where the bias cancels it.
#include <cstdint>
#include <string>

#include "core/types.hpp"
#include "problem/conv_problem.hpp"

namespace kbench {

// How many times a backend rounds the output to its dtype.
enum class OutputRounding {
  once,              // the convolution and its bias summed in fp32, rounded once
  bias_added_after,  // the convolution rounded to the dtype, then the bias added and rounded again
};

struct ErrorBound {
  double lambda = 0;
  std::int64_t reduction_length = 0;  // n: products per output element, plus one for the bias
  double u_accumulate = 0;
  double u_operand = 0;
  double u_output = 0;
  // bias_added_after only where the problem adds a bias (error_bound_for): then every element's bias is needed.
  OutputRounding output_rounding = OutputRounding::once;

  // The largest |got - ref| accepted for an element with reference `ref`, S `abs_sum`, Q `root_sum_squares`
  // and, where the bias is added after a rounding, `bias` (ignored otherwise).
  double allowed(double ref, double abs_sum, double root_sum_squares, double bias = 0) const;
  // c for an element whose terms are all of one magnitude (Q / S = 1 / sqrt(n)): what reports print.
  double c_uniform() const;
  std::string describe() const;  // one line: the formula with this bound's numbers
};

// Operand rounding that a math mode allows on fp32 data: TF32 keeps 10 mantissa bits (2^-10 truncated);
// strict fp32 may be computed as 3xTF32, whose split and dropped low-by-low product leave under 2^-19 per
// product (test_cuda_tf32_bits.cpp). Products of fp16 or bf16 operands are exact in fp32 whatever the math.
double operand_roundoff(DType dtype, MathMode math);

// `rounding`: what the backend declares (PreparedRun::output_rounding); bias_added_after counts only for a
// problem whose pass adds a bias (the forward pass with bias), one rounding otherwise.
ErrorBound error_bound_for(const ConvProblem& problem, MathMode math,
                           OutputRounding rounding = OutputRounding::once);

// Whether the problem's computed tensor has a bias added to it (the forward pass of a problem with bias).
bool adds_bias(const ConvProblem& problem);

}  // namespace kbench
