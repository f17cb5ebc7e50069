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
       make_problem(conv, 1, 2, 8, 16, 1, D{{50, 1, 1}}, D{{3, 1, 1}}, D{{3, 1, 1}}, D{{4, 1, 1}}, D{{0, 0, 0}},
                    D{{0, 0, 0}}, true)},
      {"conv2d, grouped, strided, dilated, padded, bias",
       make_problem(conv, 2, 2, 8, 16, 2, D{{9, 7, 1}}, D{{3, 2, 1}}, D{{2, 1, 1}}, D{{1, 2, 1}}, D{{1, 0, 0}},
                    D{{1, 0, 0}}, true)},
      {"conv2d, depthwise 3x3", make_problem(conv, 2, 2, 8, 8, 8, D{{12, 14, 1}}, D{{3, 3, 1}}, D{{1, 1, 1}},
                                             D{{1, 1, 1}}, D{{1, 1, 0}}, D{{1, 1, 0}}, false)},
      {"conv3d, padded, uneven strides, bias",
       make_problem(conv, 3, 1, 8, 8, 1, D{{5, 6, 7}}, D{{3, 3, 3}}, D{{1, 2, 1}}, D{{1, 1, 1}}, D{{1, 1, 1}},
                    D{{1, 1, 1}}, true)},
      {"conv_transpose1d, asymmetric padding, bias",
       make_problem(tconv, 1, 2, 8, 8, 1, D{{9, 1, 1}}, D{{3, 1, 1}}, D{{2, 1, 1}}, D{{1, 1, 1}}, D{{2, 0, 0}},
                    D{{1, 0, 0}}, true)},
      {"conv_transpose2d, grouped, output_padding, bias",
       make_problem(tconv, 2, 2, 8, 16, 2, D{{5, 6, 1}}, D{{3, 3, 1}}, D{{2, 2, 1}}, D{{1, 1, 1}}, D{{1, 1, 0}},
                    D{{1, 1, 0}}, true, D{{1, 0, 0}})},
      {"conv_transpose3d, stride 2, padding 1, dilation 2",
       make_problem(tconv, 3, 1, 8, 8, 1, D{{4, 4, 4}}, D{{3, 3, 3}}, D{{2, 2, 2}}, D{{2, 2, 2}}, D{{1, 1, 1}},
                    D{{1, 1, 1}}, false)},
  };
}

}  // namespace kbench::gpu_tests
