#pragma once
// RAII owners for cuDNN's descriptors and handle, and the descriptor set of one convolution.
#include <cudnn.h>

#include <utility>

#include "cudnn/cudnn_check.hpp"
#include "cudnn/cudnn_shape.hpp"

namespace kbench::gpu {

template <class Descriptor, cudnnStatus_t (*Create)(Descriptor*), cudnnStatus_t (*Destroy)(Descriptor)>
class CudnnDescriptor {
 public:
  CudnnDescriptor() { KBENCH_CUDNN_CHECK(Create(&descriptor_)); }
  ~CudnnDescriptor() {
    if (descriptor_) (void)Destroy(descriptor_);  // nothing to undo if it fails
  }
  CudnnDescriptor(const CudnnDescriptor&) = delete;
  CudnnDescriptor& operator=(const CudnnDescriptor&) = delete;
  CudnnDescriptor(CudnnDescriptor&& other) noexcept : descriptor_(std::exchange(other.descriptor_, nullptr)) {}
  CudnnDescriptor& operator=(CudnnDescriptor&&) = delete;

  Descriptor get() const { return descriptor_; }

 private:
  Descriptor descriptor_ = nullptr;
};

using TensorDescriptor =
    CudnnDescriptor<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor>;
using FilterDescriptor =
    CudnnDescriptor<cudnnFilterDescriptor_t, cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor>;
using ConvolutionDescriptor =
    CudnnDescriptor<cudnnConvolutionDescriptor_t, cudnnCreateConvolutionDescriptor, cudnnDestroyConvolutionDescriptor>;

// One cuDNN context, created on `device` (made current first). cudnnCreate costs a good part
// of a second, so a backend keeps one per device and every prepared run shares it.
class CudnnHandle {
 public:
  explicit CudnnHandle(int device);
  ~CudnnHandle();
  CudnnHandle(const CudnnHandle&) = delete;
  CudnnHandle& operator=(const CudnnHandle&) = delete;

  cudnnHandle_t get() const { return handle_; }
  int device() const { return device_; }

 private:
  int device_ = 0;
  cudnnHandle_t handle_ = nullptr;
};

// Every descriptor one convolution needs, built from its CudnnConvShape. Construction checks
// that cuDNN computes the same forward output shape kbench does (a mismatch is a kbench bug
// and throws std::logic_error with both shapes).
class ConvDescriptors {
 public:
  ConvDescriptors(const CudnnConvShape& shape, cudnnMathType_t math);

  void set_math(cudnnMathType_t math);
  cudnnMathType_t math() const { return math_; }
  const CudnnConvShape& shape() const { return shape_; }

  cudnnTensorDescriptor_t forward_input() const { return forward_input_.get(); }
  cudnnTensorDescriptor_t forward_output() const { return forward_output_.get(); }
  cudnnTensorDescriptor_t bias() const { return bias_.get(); }
  cudnnFilterDescriptor_t filter() const { return filter_.get(); }
  cudnnConvolutionDescriptor_t conv() const { return conv_.get(); }

 private:
  CudnnConvShape shape_;
  cudnnMathType_t math_ = CUDNN_FMA_MATH;
  TensorDescriptor forward_input_, forward_output_, bias_;
  FilterDescriptor filter_;
  ConvolutionDescriptor conv_;
};

}  // namespace kbench::gpu
