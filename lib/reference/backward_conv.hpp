#pragma once
// The reference for a convolution's two backward passes, in fp64 from fp32 (or narrower) values:
// - backward-data (grad_input from grad_output dy and the weight) is itself a convolution: a conv's is the
//   transposed conv of dy with the same stride, padding, dilation and groups, and a conv_transpose's the
//   forward conv. backward_data_problem gives that problem, so convolve / convolve_at compute it.
// - backward-weights (grad_weight from the input x and dy) is a reduction over N x spatial per weight
//   element: weight_grad / weight_grad_at, and bias_grad for grad_bias.
// Tensors are PyTorch's logical layouts: x [N, C_in, in...], dy [N, C_out, out...], weight [dim0, dim1, k...].
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "problem/conv_problem.hpp"
#include "core/support.hpp"

namespace kbench::reference {

// The problem whose forward pass is `p`'s backward-data pass: input dy, output grad_input, weight p's own
// (the same tensor, unchanged in memory: a conv's [C_out, C_in/g, k...] is a conv_transpose's
// [C_in', C_out'/g, k...] with C_in' = C_out). No bias. The output padding of a conv's takes up the input
// elements its forward pass never reached. A conv_transpose whose output padding is at least its stride
// has no forward form (the forward conv of dy would produce more than grad_input): Support::no.
Support backward_data_support(const ConvProblem& p);
ConvProblem backward_data_problem(const ConvProblem& p);  // throws std::invalid_argument where unsupported

// Terms in one grad_weight element: N x the spatial volume it reduces over (the output's for a conv, the
// input's for a conv_transpose), the length its error bound is derived from.
std::int64_t weight_grad_reduction_length(const ConvProblem& p);

// grad_weight, whole ([dim0, dim1, k...]), and at the given flat indices of it; multithreaded.
std::vector<double> weight_grad(const ConvProblem& p, std::span<const float> x, std::span<const float> dy);
std::vector<double> weight_grad_at(const ConvProblem& p, std::span<const float> x, std::span<const float> dy,
                                   std::span<const std::int64_t> weight_indices);

// grad_bias [C_out]: dy summed over N and the output's spatial positions.
std::vector<double> bias_grad(const ConvProblem& p, std::span<const float> dy);

}  // namespace kbench::reference
