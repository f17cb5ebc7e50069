#pragma once
// What a convolution's pass costs at the least: FLOPs that land in its result and bytes that must cross
// device memory once. These feed the roofline floor. The byte fields name the forward tensors; a
// backward pass's gradients have the same shapes (grad_output is output_bytes, grad_input input_bytes).
#include <cstdint>
#include <string>
#include <vector>

#include "problem/conv_problem.hpp"

namespace kbench {

struct ProblemMetrics {
  double flops = 0;  // 2 x landed multiply-adds (+ one add per output element with bias)
  double input_bytes = 0;
  double weight_bytes = 0;
  double bias_bytes = 0;
  double output_bytes = 0;
  double bytes() const { return input_bytes + weight_bytes + bias_bytes + output_bytes; }
  double arithmetic_intensity() const { return flops / bytes(); }
};

ProblemMetrics compute_metrics(const ConvProblem& problem);

// Shapes as PyTorch prints them, e.g. {64, 128, 174758}.
std::vector<std::int64_t> input_shape(const ConvProblem& problem);
std::vector<std::int64_t> weight_shape(const ConvProblem& problem);
std::vector<std::int64_t> output_shape(const ConvProblem& problem);
std::string shape_string(const std::vector<std::int64_t>& shape);  // "[64, 128, 174758]"

// The tensor a pass computes, named and shaped: "output [8, 64, 32, 32]", "grad_input [...]",
// "grad_weight [64, 3, 3, 3] + grad_bias [64]" (problem/conv_pass.hpp).
std::string computed_text(const ConvProblem& problem);

// "fp16 nhwc": the data a problem runs on, for the header lines of reports.
std::string data_text(const ConvProblem& problem);

// One line for tables and logs: "conv2d 256x3x224x224 -> 96 k11 s4 d1 p2 bias" (groups shown when != 1,
// the pass when not forward).
std::string describe(const ConvProblem& problem);

}  // namespace kbench
