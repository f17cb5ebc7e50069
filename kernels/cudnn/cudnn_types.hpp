#pragma once
// kbench's dtypes, layouts and math modes in cuDNN's enums: pure functions, so the host tests check
// every mapping without a device (tests/gpu/test_cudnn_types_host.cpp).
//
// Every tensor (x, w, b, y) has the problem's dtype; the convolution computes (accumulates) in fp32
// whatever the data, as PyTorch configures cuDNN for half data. For fp16/bf16 data the products of two
// inputs are exact in fp32 (11 x 11 and 8 x 8 significant bits), so tensor-core and FMA kernels both
// mean fp32 accumulation of exact products: --math fp32 and tf32 ask for the same thing, tensor-op
// math (PyTorch's choice for half data) with each ranked entry's own math type, and math_used is fp32.
#include <cudnn.h>

#include <cstddef>
#include <optional>
#include <string>

#include "core/types.hpp"

namespace kbench::gpu {

// CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16.
cudnnDataType_t cudnn_data_type(DType dtype);
// The convolution descriptor's compute type: CUDNN_DATA_FLOAT for every dtype.
cudnnDataType_t cudnn_compute_type(DType dtype);
// The filter's memory order: CUDNN_TENSOR_NCHW ([K, C, k...]) or CUDNN_TENSOR_NHWC ([K, k..., C]).
cudnnTensorFormat_t cudnn_filter_format(bool channels_last);

// The math type a convolution descriptor starts with. fp32 data: fp32 -> CUDNN_FMA_MATH (FMA kernels
// only: no TF32), tf32 -> CUDNN_DEFAULT_MATH (TF32 tensor cores allowed on Ampere and later, what
// PyTorch sets when cuDNN's allow_tf32 is on). fp16/bf16 data: CUDNN_TENSOR_OP_MATH in both modes.
cudnnMathType_t initial_math(MathMode math, DType dtype);

// How the math types of cuDNN's ranked entries are used: fma_only keeps the descriptor's FMA math and
// skips entries that report tensor-op math (fp32 data under --math fp32); entry_own runs each entry
// under the math type cuDNN ranked it with (tf32, and all half data), as PyTorch does.
enum class RankedMath { fma_only, entry_own };
RankedMath ranked_math(MathMode math, DType dtype);

// What a result reports as the math it ran: fp32 for half data (fp32 accumulation of exact products),
// and for fp32 data tf32 unless the algorithm ran under CUDNN_FMA_MATH or NVIDIA_TF32_OVERRIDE=0
// disabled TF32.
MathMode cudnn_math_used(DType dtype, cudnnMathType_t ran, bool tf32_disabled);

// A cuDNN version as cudnnGetVersion() and CUDNN_VERSION number it (9 on: major * 10000 + minor * 100 +
// patch; 8: major * 1000 + minor * 100 + patch), as "9.19.0".
std::string cudnn_version_text(std::size_t version);

// NVIDIA's compatibility rule (cuDNN's API compatibility notes): an application built against x.z is not
// guaranteed to work with x.y when z > y, nor with another major version. What a result and the run's
// notes say when the `loaded` library breaks it against the headers kbench was `built` with; nothing
// when it holds (the same or a newer minor version of the same major).
std::optional<std::string> cudnn_version_warning(std::size_t built, std::size_t loaded);
// The same for this process: CUDNN_VERSION against cudnnGetVersion().
std::optional<std::string> loaded_cudnn_version_warning();

std::string data_type_name(cudnnDataType_t type);
std::string tensor_format_name(cudnnTensorFormat_t format);

}  // namespace kbench::gpu
