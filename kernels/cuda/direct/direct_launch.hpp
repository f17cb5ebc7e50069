#pragma once
// The generic direct kernel: correct for every valid fp32 problem (1-D to 3-D, groups, stride,
// padding, dilation, transposed with output_padding, bias). Plain C++ entry point.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cuda/common/operands.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

struct DirectDesc {
  ConvProblem p3;        // rank 3 (reference::as_rank3)
  Dims out;              // p3.output(), computed once on the host
  PhaseDim phase[3];     // transposed only: per-dimension phase data for the tap walks
  std::int64_t total = 0;  // output elements
};

DirectDesc make_direct_desc(const ConvProblem& problem);

void launch_direct(const DirectDesc& d, const Operands& ops, cudaStream_t stream);

// Whether the current device can load this build's kernels (compiled for sm_90, with its PTX): asks
// the runtime about the direct kernel, which every problem can fall back to.
bool kernel_image_loadable(std::string* reason);

}  // namespace kbench::gpu::conv
