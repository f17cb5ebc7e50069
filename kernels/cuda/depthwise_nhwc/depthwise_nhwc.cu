// The channels-last depthwise kernel's entry point (depthwise_nhwc_kernel.cuh): one instance per dtype.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "cuda/depthwise_nhwc/depthwise_nhwc_kernel.cuh"
#include "cuda/depthwise_nhwc/depthwise_nhwc.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::depthwise_nhwc {

namespace {

template <DType kType>
void launch_instance(const Params& t, const Operands& ops, cudaStream_t stream) {
  using T = Storage<kType>;
  depthwise_nhwc_kernel<kType>
      <<<static_cast<unsigned>(t.blocks()), kThreads, static_cast<std::size_t>(t.smem_bytes()), stream>>>(
          t, Operands::as<T>(ops.x), Operands::as<T>(ops.w), Operands::as<T>(ops.bias), Operands::as<T>(ops.y));
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_depthwise_nhwc(const Params& t, const Operands& ops, cudaStream_t stream) {
  const auto misaligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kVectorBytes != 0; };
  if (misaligned(ops.x) || misaligned(ops.y))
    throw std::invalid_argument("depthwise_nhwc: input and output must be 16-byte aligned");
  switch (t.p3.dtype) {
    case DType::fp32: return launch_instance<DType::fp32>(t, ops, stream);
    case DType::fp16: return launch_instance<DType::fp16>(t, ops, stream);
    case DType::bf16: return launch_instance<DType::bf16>(t, ops, stream);
  }
}

}  // namespace kbench::gpu::conv::depthwise_nhwc
