#pragma once
// The CPU reference and the kernels compute every convolution as a 3-D one: a rank-r problem gains
// 3 - r leading spatial dimensions of extent 1 (kernel 1, stride 1, dilation 1, no padding). Their
// output extent is 1 for both conv and conv_transpose, so flat indices of every tensor are unchanged,
// and one loop nest serves 1-D, 2-D and 3-D alike.
#include "problem/conv_problem.hpp"

namespace kbench {

inline ConvProblem as_rank3(const ConvProblem& p) {
  ConvProblem p3 = p;
  p3.spatial_rank = 3;
  const int shift = 3 - p.spatial_rank;
  for (int d = 2; d >= 0; --d) {
    const bool real = d >= shift;
    const int from = d - shift;
    p3.input[d] = real ? p.input[from] : 1;
    p3.kernel[d] = real ? p.kernel[from] : 1;
    p3.stride[d] = real ? p.stride[from] : 1;
    p3.dilation[d] = real ? p.dilation[from] : 1;
    p3.pad_before[d] = real ? p.pad_before[from] : 0;
    p3.pad_after[d] = real ? p.pad_after[from] : 0;
    p3.output_padding[d] = real ? p.output_padding[from] : 0;
  }
  return p3;
}

}  // namespace kbench
