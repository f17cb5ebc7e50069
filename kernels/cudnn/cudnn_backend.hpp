#pragma once
// The "cudnn" backend: NVIDIA cuDNN's legacy convolution API (forward for convolutions,
// backward data for transposed ones), fp32 tensors, FMA-only math for --math fp32 and TF32
// tensor cores allowed for --math tf32. Variants are cuDNN's algorithm names.
#include <memory>

#include "backend/backend.hpp"

namespace kbench::gpu {

std::unique_ptr<Backend> make_cudnn_backend();

}  // namespace kbench::gpu
