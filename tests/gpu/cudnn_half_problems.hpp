#pragma once
// The seven small problems cuDNN is checked on in fp16, bf16 and channels last (test_cudnn_half.cpp) and
// through its graph API (test_cudnn_graph.cpp): 1D/2D/3D, grouped, depthwise, strided, dilated, padded,
// transposed with asymmetric padding and output_padding, with and without bias.
#include <vector>

#include "problem/conv_problem.hpp"
#include "problem_factory.hpp"

namespace kbench::gpu_tests {

struct NamedProblem {
  const char* name;
  ConvProblem problem;
};

inline std::vector<NamedProblem> half_problems() {
  using D = Dims;
  const OpKind conv = OpKind::conv;
  const OpKind tconv = OpKind::conv_transpose;
  return {
      {"conv1d, stride 3, dilation 4, bias",
       ConvProblem{.op = conv, .spatial_rank = 1, .batch = 2, .in_channels = 8, .out_channels = 16,
                   .input = D{{50, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{3, 1, 1}}, .dilation = D{{4, 1, 1}},
                   .bias = true}},
      {"conv2d, grouped, strided, dilated, padded, bias",
       ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 8, .out_channels = 16, .groups = 2,
                   .input = D{{9, 7, 1}}, .kernel = D{{3, 2, 1}}, .stride = D{{2, 1, 1}}, .dilation = D{{1, 2, 1}},
                   .pad_before = D{{1, 0, 0}}, .pad_after = D{{1, 0, 0}}, .bias = true}},
      {"conv2d, depthwise 3x3", ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 8,
                                            .out_channels = 8, .groups = 8, .input = D{{12, 14, 1}},
                                            .kernel = D{{3, 3, 1}}, .pad_before = D{{1, 1, 0}},
                                            .pad_after = D{{1, 1, 0}}}},
      {"conv3d, padded, uneven strides, bias",
       ConvProblem{.op = conv, .spatial_rank = 3, .batch = 1, .in_channels = 8, .out_channels = 8,
                   .input = D{{5, 6, 7}}, .kernel = D{{3, 3, 3}}, .stride = D{{1, 2, 1}}, .pad_before = D{{1, 1, 1}},
                   .pad_after = D{{1, 1, 1}}, .bias = true}},
      {"conv_transpose1d, asymmetric padding, bias",
       ConvProblem{.op = tconv, .spatial_rank = 1, .batch = 2, .in_channels = 8, .out_channels = 8,
                   .input = D{{9, 1, 1}}, .kernel = D{{3, 1, 1}}, .stride = D{{2, 1, 1}}, .pad_before = D{{2, 0, 0}},
                   .pad_after = D{{1, 0, 0}}, .bias = true}},
      {"conv_transpose2d, grouped, output_padding, bias",
       ConvProblem{.op = tconv, .spatial_rank = 2, .batch = 2, .in_channels = 8, .out_channels = 16, .groups = 2,
                   .input = D{{5, 6, 1}}, .kernel = D{{3, 3, 1}}, .stride = D{{2, 2, 1}}, .pad_before = D{{1, 1, 0}},
                   .pad_after = D{{1, 1, 0}}, .output_padding = D{{1, 0, 0}}, .bias = true}},
      {"conv_transpose3d, stride 2, padding 1, dilation 2",
       ConvProblem{.op = tconv, .spatial_rank = 3, .batch = 1, .in_channels = 8, .out_channels = 8,
                   .input = D{{4, 4, 4}}, .kernel = D{{3, 3, 3}}, .stride = D{{2, 2, 2}}, .dilation = D{{2, 2, 2}},
                   .pad_before = D{{1, 1, 1}}, .pad_after = D{{1, 1, 1}}}},
  };
}

}  // namespace kbench::gpu_tests
