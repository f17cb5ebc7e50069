#pragma once
// The CPU reference convolution every backend is verified against: PyTorch semantics (conv and
// conv_transpose, 1-D to 3-D, groups, stride, asymmetric padding, dilation, output_padding, bias),
// fp32 inputs, fp64 accumulation, multithreaded.
#include <cstdint>
#include <span>
#include <vector>

#include "data/host_tensors.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::reference {

// What each product term x * w (and the bias) contributes to an output element: its value (the
// convolution itself), its magnitude |x * w| (S of verify/error_bound.hpp) or its square (Q^2 there).
// The last two are the same convolution of |x|, |w|, |b| or x^2, w^2, b^2, so one implementation serves
// all three.
enum class Terms { value, magnitude, square };

// The tensors whose convolution sums the given terms: unchanged, absolute values, or squares.
data::HostTensors tensors_for_terms(const data::HostTensors& tensors, Terms terms);

// The problem's pass decides what these compute (problem/conv_pass.hpp): the forward output, grad_input,
// or grad_weight then grad_bias; "output" below means that computed tensor.
//
// The whole output, row-major [N, C_out, spatial...].
// Throws kbench::InputError for a problem it cannot compute and std::invalid_argument when the tensors'
// sizes do not match the problem.
std::vector<double> convolve(const ConvProblem& problem, const data::HostTensors& tensors);

// Only the output elements at the given flat indices, in the same order.
// Throws std::out_of_range for an index outside the output.
std::vector<double> convolve_at(const ConvProblem& problem, const data::HostTensors& tensors,
                                std::span<const std::int64_t> output_indices);

// As convolve_at, with every input, weight and bias value regenerated from `seed` (data::draw) when it is
// needed, so outputs of problems whose inputs do not fit host memory can still be checked.
std::vector<double> convolve_at_seeded(const ConvProblem& problem, std::uint64_t seed,
                                       std::span<const std::int64_t> output_indices, Terms terms = Terms::value);

}  // namespace kbench::reference
