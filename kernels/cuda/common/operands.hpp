#pragma once
// The four device tensors every kernel of the cuda backend reads or writes: elements of the problem's
// dtype (common/element.hpp) in its memory layout (problem/memory_layout.hpp). Typed float for the fp32
// kernels; a kernel of another element type reads them through as<T>().
namespace kbench::gpu::conv {

struct Operands {
  const float* x = nullptr;  // input  [N, C_in, spatial...] (NCHW) or [N, spatial..., C_in] (NHWC)
  const float* w = nullptr;  // weight [C_out, C_in/g, k...] (conv) or [C_in, C_out/g, k...] (transposed), or k... last
  const float* bias = nullptr;  // [C_out], or nullptr
  float* y = nullptr;           // output [N, C_out, spatial...] or [N, spatial..., C_out]
  // The backward_weights pass's (wgrad/): x and grad_output read, grad_weight (and grad_bias) written,
  // each stored like the forward tensor of its shape (y, w, bias). The forward fields above are null then.
  const float* dy = nullptr;
  float* dw = nullptr;
  float* db = nullptr;  // nullptr without bias

  // The buffers of a run, untyped (GpuPreparedRun's x_data() ...): whatever their element type.
  static Operands of(const void* x, const void* w, const void* bias, void* y) {
    return {static_cast<const float*>(x), static_cast<const float*>(w), static_cast<const float*>(bias),
            static_cast<float*>(y)};
  }
  template <class T>
  static const T* as(const float* p) {
    return static_cast<const T*>(static_cast<const void*>(p));
  }
  template <class T>
  static T* as(float* p) {
    return static_cast<T*>(static_cast<void*>(p));
  }
};

}  // namespace kbench::gpu::conv
