#pragma once
// The "cudnn" backend: NVIDIA cuDNN's legacy convolution API, every pass (cudnn_pass.hpp says
// which call each (op, pass) makes: forward, backward data, backward filter), FMA-only math for
// --math fp32 and TF32 tensor cores allowed for --math tf32. Variants are the names of the
// algorithms of the pass's call.
#include <memory>

#include "backend/backend.hpp"

namespace kbench::gpu {

std::unique_ptr<Backend> make_cudnn_backend();

}  // namespace kbench::gpu
