// The backward_weights entry point (wgrad_kernel.cuh): the GEMM per split into the workspace (or, unsplit
// fp32 NCHW, straight into grad_weight), the ordered sum of the splits rounded to the dtype and stored
// in the layout, and grad_bias; the fp32 sum and grad_bias also serve wgrad_depthwise
// (wgrad_depthwise.cu), whose slices are summed the same way.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/wgrad/wgrad_kernel.cuh"
#include "cuda/wgrad/wgrad.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::wgrad {

void launch_sum_splits(std::int64_t elements, std::int64_t splits, const float* partials, float* dw,
                       cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((elements + kThreads - 1) / kThreads, 1 << 16));
  wgrad_sum_splits_kernel<<<blocks, kThreads, 0, stream>>>(elements, splits, partials, dw);
  KBENCH_CUDA_CHECK_LAUNCH();
}

namespace {

template <DType kType>
void launch_typed(const WgradParams& d, const Operands& ops, float* workspace, cudaStream_t stream) {
  using T = Storage<kType>;
  const T* x = Operands::as<T>(ops.x);
  const T* dy = Operands::as<T>(ops.dy);
  const dim3 grid(static_cast<unsigned>(tiles_n(d)), static_cast<unsigned>(tiles_m(d)),
                  static_cast<unsigned>(d.groups * d.splits));
  const bool through_workspace = stores_through_workspace(d);
  float* gemm_out = through_workspace ? workspace : ops.dw;
  wgrad_gemm_kernel<kType><<<grid, kThreads, kSmemBytes, stream>>>(d, d.rows_are_x ? x : dy, d.rows_are_x ? dy : x,
                                                                   gemm_out);
  KBENCH_CUDA_CHECK_LAUNCH();
  if (through_workspace) {
    const std::int64_t elements = weight_elements(d);
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((elements + kThreads - 1) / kThreads, 1 << 16));
    wgrad_store_kernel<kType><<<blocks, kThreads, 0, stream>>>(d, workspace, Operands::as<T>(ops.dw));
    KBENCH_CUDA_CHECK_LAUNCH();
  }
  if (d.bias_channels > 0) {
    wgrad_bias_kernel<kType><<<static_cast<unsigned>(d.bias_channels), kThreads, kThreads * sizeof(float), stream>>>(
        d, dy, Operands::as<T>(ops.db));
    KBENCH_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

void launch_grad_bias(const WgradParams& d, const Operands& ops, cudaStream_t stream) {
  wgrad_bias_kernel<DType::fp32>
      <<<static_cast<unsigned>(d.bias_channels), kThreads, kThreads * sizeof(float), stream>>>(d, ops.dy, ops.db);
  KBENCH_CUDA_CHECK_LAUNCH();
}

void launch_wgrad(const WgradParams& d, const Operands& ops, float* workspace, cudaStream_t stream) {
  switch (d.dtype) {
    case DType::fp32: return launch_typed<DType::fp32>(d, ops, workspace, stream);
    case DType::fp16: return launch_typed<DType::fp16>(d, ops, workspace, stream);
    case DType::bf16: return launch_typed<DType::bf16>(d, ops, workspace, stream);
  }
}

}  // namespace kbench::gpu::conv::wgrad
