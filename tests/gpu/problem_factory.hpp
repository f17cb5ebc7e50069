#pragma once
// One-line ConvProblem construction for the GPU tests' tables of shapes.
#include <cstdint>

#include "problem/conv_problem.hpp"

namespace kbench::gpu_tests {

inline ConvProblem make_problem(OpKind op, int rank, std::int64_t n, std::int64_t cin, std::int64_t cout,
                                std::int64_t groups, Dims input, Dims kernel, Dims stride, Dims dilation,
                                Dims pad_before, Dims pad_after, bool bias, Dims output_padding = Dims{{0, 0, 0}}) {
  ConvProblem p;
  p.op = op;
  p.spatial_rank = rank;
  p.batch = n;
  p.in_channels = cin;
  p.out_channels = cout;
  p.groups = groups;
  p.input = input;
  p.kernel = kernel;
  p.stride = stride;
  p.dilation = dilation;
  p.pad_before = pad_before;
  p.pad_after = pad_after;
  p.output_padding = output_padding;
  p.bias = bias;
  return p;
}

}  // namespace kbench::gpu_tests
