// The generic direct kernel's entry point (direct_kernel.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/direct/direct_kernel.cuh"
#include "cuda/device_support.hpp"
#include "cuda/direct/direct.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv {

namespace {

template <DType kType, Layout kLayout>
void launch_instance(const DirectParams& d, const Operands& ops, cudaStream_t stream) {
  using T = Storage<kType>;
  // Grid-stride: a bounded grid covers any output size.
  const std::int64_t blocks =
      std::min<std::int64_t>((d.total + kDirectThreads - 1) / kDirectThreads, std::int64_t{1} << 20);
  direct_conv_kernel<kType, kLayout><<<static_cast<unsigned>(blocks), kDirectThreads, 0, stream>>>(
      d, Operands::as<T>(ops.x), Operands::as<T>(ops.w), Operands::as<T>(ops.bias), Operands::as<T>(ops.y));
  KBENCH_CUDA_CHECK_LAUNCH();
}

template <DType kType>
void launch_layout(const DirectParams& d, const Operands& ops, cudaStream_t stream) {
  if (d.p3.layout == Layout::nhwc) return launch_instance<kType, Layout::nhwc>(d, ops, stream);
  launch_instance<kType, Layout::nchw>(d, ops, stream);
}

}  // namespace

void launch_direct(const DirectParams& d, const Operands& ops, cudaStream_t stream) {
  switch (d.p3.dtype) {
    case DType::fp32: return launch_layout<DType::fp32>(d, ops, stream);
    case DType::fp16: return launch_layout<DType::fp16>(d, ops, stream);
    case DType::bf16: return launch_layout<DType::bf16>(d, ops, stream);
  }
}

bool kernel_image_loadable(std::string* reason) {
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, direct_conv_kernel<DType::fp32, Layout::nchw>);
  if (status == cudaSuccess) return true;
  (void)cudaGetLastError();  // not sticky: leave no error behind for later checks
  if (reason != nullptr) *reason = cudaGetErrorString(status);
  return false;
}

}  // namespace kbench::gpu::conv
