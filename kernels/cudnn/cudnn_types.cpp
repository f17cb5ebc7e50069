#include "cudnn/cudnn_types.hpp"

namespace kbench::gpu {

cudnnDataType_t cudnn_data_type(DType dtype) {
  switch (dtype) {
    case DType::fp16: return CUDNN_DATA_HALF;
    case DType::bf16: return CUDNN_DATA_BFLOAT16;
    case DType::fp32: break;
  }
  return CUDNN_DATA_FLOAT;
}

cudnnDataType_t cudnn_compute_type(DType) { return CUDNN_DATA_FLOAT; }

cudnnTensorFormat_t cudnn_filter_format(bool channels_last) {
  return channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
}

cudnnMathType_t initial_math(MathMode math, DType dtype) {
  if (dtype != DType::fp32) return CUDNN_TENSOR_OP_MATH;
  return math == MathMode::fp32 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH;
}

RankedMath ranked_math(MathMode math, DType dtype) {
  return dtype == DType::fp32 && math == MathMode::fp32 ? RankedMath::fma_only : RankedMath::entry_own;
}

MathMode cudnn_math_used(DType dtype, cudnnMathType_t ran, bool tf32_disabled) {
  if (dtype != DType::fp32 || tf32_disabled) return MathMode::fp32;
  return ran == CUDNN_FMA_MATH ? MathMode::fp32 : MathMode::tf32;
}

std::string data_type_name(cudnnDataType_t type) {
  switch (type) {
    case CUDNN_DATA_FLOAT: return "CUDNN_DATA_FLOAT";
    case CUDNN_DATA_HALF: return "CUDNN_DATA_HALF";
    case CUDNN_DATA_BFLOAT16: return "CUDNN_DATA_BFLOAT16";
    default: break;
  }
  return "cudnnDataType_t(" + std::to_string(static_cast<int>(type)) + ")";
}

std::string tensor_format_name(cudnnTensorFormat_t format) {
  switch (format) {
    case CUDNN_TENSOR_NCHW: return "CUDNN_TENSOR_NCHW";
    case CUDNN_TENSOR_NHWC: return "CUDNN_TENSOR_NHWC";
    case CUDNN_TENSOR_NCHW_VECT_C: return "CUDNN_TENSOR_NCHW_VECT_C";
  }
  return "cudnnTensorFormat_t(" + std::to_string(static_cast<int>(format)) + ")";
}

}  // namespace kbench::gpu
