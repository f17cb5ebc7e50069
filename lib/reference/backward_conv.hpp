#pragma once
// The reference for a convolution's two backward passes, in fp64 from fp32 (or narrower) values:
// - backward-data (grad_input from grad_output dy and the weight) is itself a convolution, the forward
//   pass of problem/conv_pass.hpp's backward_data_covering_problem (cropped to grad_input where its output
//   is longer), so convolve / convolve_at compute it.
// - backward-weights (grad_weight from the input x and dy) is a reduction over N x spatial per weight
//   element: weight_grad / weight_grad_at, and bias_grad for grad_bias.
// reference_conv.hpp's convolve, convolve_at and convolve_at_seeded reach these for a problem whose pass
// is not forward, so callers ask for "the pass's computed tensor" without naming the pass.
// Tensors are PyTorch's logical layouts: x [N, C_in, in...], dy [N, C_out, out...], weight [dim0, dim1, k...].
#include <cstdint>
#include <span>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::reference {

enum class Terms;

// grad_weight, whole ([dim0, dim1, k...]), and at the given flat indices of it; multithreaded.
std::vector<double> weight_grad(const ConvProblem& p, std::span<const float> x, std::span<const float> dy);
std::vector<double> weight_grad_at(const ConvProblem& p, std::span<const float> x, std::span<const float> dy,
                                   std::span<const std::int64_t> weight_indices);

// grad_bias [C_out]: dy summed over N and the output's spatial positions.
std::vector<double> bias_grad(const ConvProblem& p, std::span<const float> dy);

// A backward pass's computed tensor (grad_input; or grad_weight then grad_bias), whole or at flat
// indices of it, from host tensors holding the pass's operands (data::roles_read).
std::vector<double> backward_pass(const ConvProblem& p, const data::HostTensors& tensors);
std::vector<double> backward_pass_at(const ConvProblem& p, const data::HostTensors& tensors,
                                     std::span<const std::int64_t> indices);

// As backward_pass_at with each operand value regenerated from `seed` where it is needed. A
// backward_weights element draws N x spatial values of each operand: slow, meant for a few points of a
// problem whose operands do not fit host memory.
std::vector<double> backward_pass_at_seeded(const ConvProblem& p, std::uint64_t seed,
                                            std::span<const std::int64_t> indices, Terms terms);

}  // namespace kbench::reference
