// The `wgrad_depthwise` entry point (wgrad_depthwise_kernel.cuh): one block per (slice, channel) into the
// workspace (or, unsliced, straight into grad_weight), then the GEMM family's ordered sum of the
// slices and its grad_bias (wgrad.cu).
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/wgrad/wgrad_depthwise_kernel.cuh"
#include "cuda/wgrad/wgrad.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::wgrad_depthwise {

void launch_wgrad_depthwise(const WgradDepthwiseParams& d, const Operands& ops, float* workspace, cudaStream_t stream) {
  const float* rows = d.g.rows_are_x ? ops.x : ops.dy;
  const float* gathered = d.g.rows_are_x ? ops.dy : ops.x;
  float* out = d.slices > 1 ? workspace : ops.dw;
  const auto blocks = static_cast<unsigned>(channels(d) * d.slices);  // within kMaxGridX (choose_slices)
  wgrad_depthwise_kernel<<<blocks, kThreads, static_cast<std::size_t>(smem_bytes(d)), stream>>>(d, rows, gathered,
                                                                                                 out);
  KBENCH_CUDA_CHECK_LAUNCH();
  if (d.slices > 1) wgrad::launch_sum_splits(weight_elements(d), d.slices, workspace, ops.dw, stream);
  if (d.g.bias_channels > 0) wgrad::launch_grad_bias(d.g, ops, stream);
}

}  // namespace kbench::gpu::conv::wgrad_depthwise
