#include "cudnn/cudnn_descriptors.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnn/cudnn_types.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

// Dimensions in NCHW order; the strides say the layout (cudnn_shape.hpp).
void set_tensor(cudnnTensorDescriptor_t descriptor, DType dtype, const std::vector<int>& dims,
                const std::vector<int>& strides) {
  if (strides.size() != dims.size())
    throw std::logic_error(fmt::format("cuDNN tensor [{}] given {} strides", fmt::join(dims, ", "), strides.size()));
  KBENCH_CUDNN_CHECK(cudnnSetTensorNdDescriptor(descriptor, cudnn_data_type(dtype), static_cast<int>(dims.size()),
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
  set_tensor(forward_input_.get(), shape_.dtype, shape_.forward_input, shape_.forward_input_strides);
  set_tensor(forward_output_.get(), shape_.dtype, shape_.forward_output, shape_.forward_output_strides);
  set_tensor(bias_.get(), shape_.dtype, shape_.bias, shape_.bias_strides);
  // Filter dimensions are [K, C, k...] in either format; the format says the memory order (KRSC for NHWC).
  KBENCH_CUDNN_CHECK(cudnnSetFilterNdDescriptor(filter_.get(), cudnn_data_type(shape_.dtype),
                                                cudnn_filter_format(shape_.channels_last),
                                                static_cast<int>(shape_.filter.size()), shape_.filter.data()));
  // Cross-correlation, as PyTorch computes (and as kbench's reference defines) convolution;
  // fp32 accumulation for every data type.
  KBENCH_CUDNN_CHECK(cudnnSetConvolutionNdDescriptor(conv_.get(), static_cast<int>(shape_.pad.size()),
                                                     shape_.pad.data(), shape_.stride.data(), shape_.dilation.data(),
                                                     CUDNN_CROSS_CORRELATION, cudnn_compute_type(shape_.dtype)));
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
