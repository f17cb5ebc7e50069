#pragma once
// How a ConvProblem is expressed to cuDNN's legacy convolution API, as plain integers (no cuDNN
// header, so it is tested on the host).
//
// A convolution is cuDNN's forward convolution: x -> y. A transposed convolution is cuDNN's
// backward-data of the forward convolution that maps our *output* to our *input*, as PyTorch
// runs it: PyTorch's transposed weight [C_in, C_out/g, k...] is exactly that forward
// convolution's filter [K = C_in, C = C_out/g, k...], dy is our input and dx our output.
// The descriptors are those of that forward convolution for every pass; cudnn_pass.hpp says
// which call each pass makes on them. Every pass reads and writes tensors of the forward
// operands' shapes, so whatever is expressible is expressible for all three.
// A 1D problem runs as 2D with a unit height ([N, C, 1, L], kernel [1, k]).
//
// Dimensions are always given in cuDNN's logical NCHW order ([N, C, spatial...], filters [K, C, k...]);
// a channels-last problem says where elements live through the strides (C stride 1, [N, spatial..., C]
// in memory) and through the filter format (CUDNN_TENSOR_NHWC: [K, k..., C] in memory, cuDNN's KRSC),
// exactly problem/memory_layout.hpp's layout. The unit height of a 1D problem sits between N and W
// either way, so [N, 1, L, C] is the same memory as [N, L, C].
#include <array>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "cudnn/cudnn_pass.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu {

struct CudnnConvShape {
  int nb_dims = 4;                          // 4 (1D and 2D) or 5 (3D)
  DType dtype = DType::fp32;                // of every tensor, bias included; the convolution computes in fp32
  bool channels_last = false;               // NHWC / NDHWC tensors and a CUDNN_TENSOR_NHWC filter
  std::vector<int> forward_input;           // [N, C, spatial...] of the forward convolution's input
  std::vector<int> forward_input_strides;   // packed in the layout
  std::vector<int> filter;                  // [K, C/groups, k...] (the format says the memory order)
  std::vector<int> forward_output;          // [N, K, spatial...]
  std::vector<int> forward_output_strides;  // packed in the layout
  std::vector<int> bias;                    // [1, C_out, 1...] (used only with a bias)
  std::vector<int> bias_strides;            // the same memory in either layout: C contiguous
  std::vector<int> pad, stride, dilation;   // nb_dims - 2 entries each
  int groups = 1;
  CudnnCall call;  // the call the pass makes, and which buffer each descriptor describes (cudnn_pass.hpp)
};

// yes, or no with the reason, e.g. asymmetric padding cuDNN cannot express exactly, a dtype
// kbench's cuDNN backend does not run, or a tensor beyond cuDNN's 32-bit sizes.
Support cudnn_expressible(const ConvProblem& problem);

// Precondition: cudnn_expressible(problem).
CudnnConvShape cudnn_shape(const ConvProblem& problem);

// Fully packed row-major strides of `dims`.
std::vector<int> packed_strides(const std::vector<int>& dims);

// Fully packed channels-last strides of `dims` = [N, C, spatial...]: memory [N, spatial..., C], so C's
// stride is 1, the last spatial dimension's C, ..., and N's C times the spatial volume.
std::vector<int> channels_last_strides(const std::vector<int>& dims);

// The strides of a tensor of `dims` ([N, C, spatial...]) stored in `layout`.
std::vector<int> layout_strides(const std::vector<int>& dims, bool channels_last);

}  // namespace kbench::gpu
