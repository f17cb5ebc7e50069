#pragma once
// The four KernelBench headline problems (level 1: 50, 76, 77, 84) written out by hand
// (../shared/reference/kernelbench-conv.md), independent of the spec parser, for the tests that need
// their exact shapes: each written here alone.
#include <cstdint>

#include "problem/conv_problem.hpp"

namespace kbench::testing {

inline ConvProblem headline76() {  // Conv1d 64 -> 128, L 524280, k3 s3 d4
  ConvProblem p;
  p.spatial_rank = 1;
  p.batch = 64;
  p.in_channels = 64;
  p.out_channels = 128;
  p.input = Dims{{524280, 1, 1}};
  p.kernel = Dims{{3, 1, 1}};
  p.stride = Dims{{3, 1, 1}};
  p.dilation = Dims{{4, 1, 1}};
  return p;
}

inline ConvProblem headline50() {  // Conv2d 3 -> 96, 224x224, k11 s4 p2, bias
  ConvProblem p;
  p.batch = 256;
  p.in_channels = 3;
  p.out_channels = 96;
  p.input = Dims{{224, 224, 1}};
  p.kernel = Dims{{11, 11, 1}};
  p.stride = Dims{{4, 4, 1}};
  p.pad_before = p.pad_after = Dims{{2, 2, 0}};
  p.bias = true;
  return p;
}

inline ConvProblem headline84() {  // depthwise Conv2d 128 channels, 256x512, k3
  ConvProblem p;
  p.batch = 64;
  p.in_channels = p.out_channels = p.groups = 128;
  p.input = Dims{{256, 512, 1}};
  p.kernel = Dims{{3, 3, 1}};
  return p;
}

inline ConvProblem headline77() {  // ConvTranspose3d 32 -> 64, 16x32x32, k3 s2 p1 d2
  ConvProblem p;
  p.op = OpKind::conv_transpose;
  p.spatial_rank = 3;
  p.batch = 16;
  p.in_channels = 32;
  p.out_channels = 64;
  p.input = Dims{{16, 32, 32}};
  p.kernel = Dims{{3, 3, 3}};
  p.stride = Dims{{2, 2, 2}};
  p.pad_before = p.pad_after = Dims{{1, 1, 1}};
  p.dilation = Dims{{2, 2, 2}};
  return p;
}

// A seed's geometry (channels, groups, kernel, stride, dilation, padding, bias) at another batch and
// input size: for the tests that cannot afford the full problem.
inline ConvProblem resized(ConvProblem p, std::int64_t batch, Dims input) {
  p.batch = batch;
  p.input = input;
  return p;
}

}  // namespace kbench::testing
