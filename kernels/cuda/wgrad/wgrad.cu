// The backward_weights launcher (wgrad_kernel.cuh): the GEMM per split into the workspace (or, unsplit,
// straight into grad_weight), the ordered sum of the splits, and grad_bias; the last two also serve
// wgrad_depthwise (wgrad_depthwise.cu), whose slices are summed the same way.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/wgrad/wgrad_kernel.cuh"
#include "cuda/wgrad/wgrad_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::wgrad {

void launch_sum_splits(std::int64_t elements, std::int64_t splits, const float* partials, float* dw,
                       cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((elements + kThreads - 1) / kThreads, 1 << 16));
  wgrad_sum_splits_kernel<<<blocks, kThreads, 0, stream>>>(elements, splits, partials, dw);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void launch_grad_bias(const WgradDesc& d, const Operands& ops, cudaStream_t stream) {
  wgrad_bias_kernel<<<static_cast<unsigned>(d.bias_channels), kThreads, kThreads * sizeof(float), stream>>>(d, ops.dy,
                                                                                                            ops.db);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void launch_wgrad(const WgradDesc& d, const Operands& ops, float* workspace, cudaStream_t stream) {
  const float* rows = d.rows_are_x ? ops.x : ops.dy;
  const float* gathered = d.rows_are_x ? ops.dy : ops.x;
  const dim3 grid(static_cast<unsigned>(tiles_n(d)), static_cast<unsigned>(tiles_m(d)),
                  static_cast<unsigned>(d.groups * d.splits));
  float* gemm_out = d.splits > 1 ? workspace : ops.dw;
  wgrad_gemm_kernel<<<grid, kThreads, kSmemBytes, stream>>>(d, rows, gathered, gemm_out);
  KBENCH_CUDA_CHECK_LAUNCH();
  if (d.splits > 1) launch_sum_splits(weight_elements(d), d.splits, workspace, ops.dw, stream);
  if (d.bias_channels > 0) launch_grad_bias(d, ops, stream);
}

}  // namespace kbench::gpu::conv::wgrad
