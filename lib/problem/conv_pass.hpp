#pragma once
// What each pass of a convolution computes, in terms of the forward problem's geometry (PyTorch's
// autograd names and logical layouts):
//   forward           reads input x, weight w (and bias b)  writes output y      [N, C_out, out...]
//   backward_data     reads grad_output dy and w            writes grad_input dx [N, C_in, in...]
//   backward_weights  reads x and dy                        writes grad_weight dw [dim0, dim1, k...],
//                                                           then grad_bias db [C_out] with a bias
// For conv_transpose the same three hold with its own tensors (its forward is a conv's backward-data).
// A backward_weights result is one flat tensor: dw's elements, then db's; the dump splits them again.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/support.hpp"
#include "problem/conv_problem.hpp"
#include "problem/memory_layout.hpp"

namespace kbench {

// Elements of the tensor the pass writes (for backward_weights, dw's then db's).
std::int64_t computed_elements(const ConvProblem& p);

// The computed tensor's name as autograd calls it: output, grad_input, grad_weight.
std::string_view computed_name(const ConvProblem& p);

// The computed tensor's logical extents ([N, C, spatial...] or the weight's), without grad_bias.
std::vector<std::int64_t> computed_extents(const ConvProblem& p);

// Elements of grad_bias at the end of a backward_weights result; 0 for every other pass or without bias.
std::int64_t computed_bias_elements(const ConvProblem& p);

// The forward operands whose buffers hold the computed tensor, in its order: forward {output},
// backward_data {input}, backward_weights {weight} then {bias} with a bias. Every gradient has the shape
// and layout of the forward operand it differentiates, so a backend keeps one buffer per forward
// operand whatever the pass (data::role_operand says where the operands read live).
std::vector<Operand> computed_operands(const ConvProblem& p);

// The most products (plus one for a bias) summed into one computed element: the n of its error bound.
// Forward: C_in/g x taps; backward_data: the forward's reduction seen from dx, (C_out/g) x taps; a
// backward_weights element sums N x the spatial volume it slides over (problem 76: 11 million terms).
std::int64_t reduction_length(const ConvProblem& p);

// The problem whose forward pass is `p`'s backward-data pass: input dy, output grad_input, weight p's
// own (the same tensor, unchanged in memory: a conv's [C_out, C_in/g, k...] is a conv_transpose's
// [C_in', C_out'/g, k...] with C_in' = C_out). No bias; pass forward. The output padding of a conv's takes
// up the input elements its forward pass never reached. A conv_transpose whose output padding is at least
// its stride has no forward form (the forward conv of dy would produce more than grad_input): Support::no.
Support backward_data_support(const ConvProblem& p);
ConvProblem backward_data_problem(const ConvProblem& p);  // throws std::invalid_argument where unsupported

// The forward problem whose output holds `p`'s grad_input as its leading corner ([0, extent) along each
// axis): backward_data_problem's wherever that exists. Past it, a conv_transpose's output padding reaches
// its stride (PyTorch allows that below the dilation): dy's forward conv then yields floor(output_padding /
// stride) more rows per axis, which grad_input drops; its own rows read only inside dy, so the crop is exact.
ConvProblem backward_data_covering_problem(const ConvProblem& p);

}  // namespace kbench
