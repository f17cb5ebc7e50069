#pragma once
// The four device tensors every kernel of the cuda backend reads or writes, in PyTorch's layouts.
namespace kbench::gpu::conv {

struct Operands {
  const float* x = nullptr;     // input  [N, C_in, spatial...]
  const float* w = nullptr;     // weight [C_out, C_in/g, k...] (conv) or [C_in, C_out/g, k...] (transposed)
  const float* bias = nullptr;  // [C_out], or nullptr
  float* y = nullptr;           // output [N, C_out, spatial...]
};

}  // namespace kbench::gpu::conv
