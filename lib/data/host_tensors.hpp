#pragma once
// Host copies of a problem's seeded tensors, for the CPU reference and for --dump.
#include <cstdint>
#include <vector>

#include "data/counter_rng.hpp"
#include "problem/conv_problem.hpp"
#include "problem/memory_layout.hpp"

namespace kbench::data {

// PyTorch's default init bound for weight and bias: 1/sqrt(fan_in), fan_in = weight.size(1) x kernel volume
// (for a transposed convolution weight.size(1) is C_out/groups).
float init_bound(const ConvProblem& problem);

// Value of one element of a seeded tensor, rounded to the problem's dtype, at its logical (NCHW-order)
// index; what device fills compute, element for element.
float seeded_value(const ConvProblem& problem, std::uint64_t seed, TensorRole role, std::int64_t index);

std::vector<float> make_seeded(const ConvProblem& problem, std::uint64_t seed, TensorRole role);

// The operands a problem's pass reads (problem/conv_pass.hpp): forward input, weight (and bias);
// backward_data grad_output and weight; backward_weights input and grad_output.
std::vector<TensorRole> roles_read(const ConvProblem& problem);

// The forward operand whose buffer (shape and layout) holds a tensor of that role: grad_output the
// output's, every other role its own.
Operand role_operand(TensorRole role);

// Elements of the tensor in that role (grad_output has the forward output's shape).
std::int64_t role_elements(const ConvProblem& problem, TensorRole role);

// "input", "weight", "bias", "grad_output": autograd's names, as --dump names the files.
const char* role_name(TensorRole role);

// Logical (NCHW-order) values, whatever the problem's layout, widened to fp32 (exact for every dtype).
// Only the roles the problem's pass reads are filled; the others stay empty.
struct HostTensors {
  std::vector<float> input;
  std::vector<float> weight;
  std::vector<float> bias;  // empty when the problem has no bias
  std::vector<float> grad_output;

  std::vector<float>& operator[](TensorRole role);
  const std::vector<float>& operator[](TensorRole role) const;
};

HostTensors make_host_tensors(const ConvProblem& problem, std::uint64_t seed);

}  // namespace kbench::data
