#pragma once
// The problem both depthwise 2-D kernels tile (the register kernel, depthwise_index.hpp; the
// bulk-copy kernel, depthwise_bulk_index.hpp): planes of one channel each, stride 1, dilation 1, a
// square kernel. Shared with the CPU tests.
#include <cstdint>

#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv::depthwise {

struct PlaneParams {
  std::int64_t channels = 1;
  std::int64_t planes = 1;  // batch * channels: plane = n * channels + c
  std::int64_t in_h = 1, in_w = 4;
  std::int64_t out_h = 1, out_w = 1;
  std::int64_t pad_top = 0, pad_left = 0;
  std::int64_t kernel = 3;
};

inline PlaneParams make_plane_params(std::int64_t batch, std::int64_t channels, std::int64_t in_h, std::int64_t in_w,
                                   std::int64_t out_h, std::int64_t out_w, std::int64_t pad_top, std::int64_t pad_left,
                                   std::int64_t kernel) {
  PlaneParams s;
  s.channels = channels;
  s.planes = batch * channels;
  s.in_h = in_h;
  s.in_w = in_w;
  s.out_h = out_h;
  s.out_w = out_w;
  s.pad_top = pad_top;
  s.pad_left = pad_left;
  s.kernel = kernel;
  return s;
}

// The shape of a 2-D depthwise problem (groups == in_channels == out_channels).
inline PlaneParams plane_params(const ConvProblem& p) {
  return make_plane_params(p.batch, p.in_channels, p.input[0], p.input[1], p.output_extent(0), p.output_extent(1),
                          p.pad_before[0], p.pad_before[1], p.kernel[0]);
}

}  // namespace kbench::gpu::conv::depthwise
