#pragma once
// The "cuda" backend: kbench's own CUDA kernels (kernels/cuda/, docs/kernels.md). Every valid fp32
// problem runs on the generic direct kernel at least; fast paths (depthwise 2-D, implicit GEMM in
// FFMA, 3xTF32 and TF32, transposed by phases) are chosen per problem or forced by variant name.
#include <memory>

#include "backend/backend.hpp"

namespace kbench::gpu {

std::unique_ptr<Backend> make_cuda_backend();

}  // namespace kbench::gpu
