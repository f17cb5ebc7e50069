#include "cudnn/cudnn_descriptors.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

void set_packed(cudnnTensorDescriptor_t descriptor, const std::vector<int>& dims) {
  const std::vector<int> strides = packed_strides(dims);
  KBENCH_CUDNN_CHECK(cudnnSetTensorNdDescriptor(descriptor, CUDNN_DATA_FLOAT, static_cast<int>(dims.size()),
                                                dims.data(), strides.data()));
}

}  // namespace

CudnnHandle::CudnnHandle(int device) : device_(device) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device));
  KBENCH_CUDNN_CHECK(cudnnCreate(&handle_));
}

CudnnHandle::~CudnnHandle() {
  if (handle_) {
    (void)cudaSetDevice(device_);
    (void)cudnnDestroy(handle_);
  }
}

ConvDescriptors::ConvDescriptors(const CudnnConvShape& shape, cudnnMathType_t math) : shape_(shape), math_(math) {
  set_packed(forward_input_.get(), shape_.forward_input);
  set_packed(forward_output_.get(), shape_.forward_output);
  set_packed(bias_.get(), shape_.bias);
  KBENCH_CUDNN_CHECK(cudnnSetFilterNdDescriptor(filter_.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW,
                                                static_cast<int>(shape_.filter.size()), shape_.filter.data()));
  // Cross-correlation, as PyTorch computes (and as kbench's reference defines) convolution;
  // fp32 accumulation.
  KBENCH_CUDNN_CHECK(cudnnSetConvolutionNdDescriptor(conv_.get(), static_cast<int>(shape_.pad.size()),
                                                     shape_.pad.data(), shape_.stride.data(), shape_.dilation.data(),
                                                     CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  KBENCH_CUDNN_CHECK(cudnnSetConvolutionGroupCount(conv_.get(), shape_.groups));
  set_math(math_);

  std::vector<int> computed(shape_.forward_output.size());
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionNdForwardOutputDim(conv_.get(), forward_input_.get(), filter_.get(),
                                                           static_cast<int>(computed.size()), computed.data()));
  if (computed != shape_.forward_output)
    throw std::logic_error(fmt::format("cuDNN computes forward output [{}] where kbench expects [{}]",
                                       fmt::join(computed, ", "), fmt::join(shape_.forward_output, ", ")));
}

void ConvDescriptors::set_math(cudnnMathType_t math) {
  KBENCH_CUDNN_CHECK(cudnnSetConvolutionMathType(conv_.get(), math));
  math_ = math;
}

}  // namespace kbench::gpu
