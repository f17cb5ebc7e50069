#include "cudnn/cudnn_types.hpp"

#include <fmt/format.h>

#include "run/math_policy.hpp"

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
  return reported_math(dtype, ran != CUDNN_FMA_MATH && !tf32_disabled);
}

namespace {

struct VersionParts {
  std::size_t major, minor, patch;
};

VersionParts parts_of(std::size_t v) {
  if (v >= 10000) return {v / 10000, v / 100 % 100, v % 100};
  return {v / 1000, v / 100 % 10, v % 100};  // cuDNN 8's numbering
}

}  // namespace

std::string cudnn_version_text(std::size_t version) {
  const VersionParts p = parts_of(version);
  return fmt::format("{}.{}.{}", p.major, p.minor, p.patch);
}

std::optional<std::string> cudnn_version_warning(std::size_t built, std::size_t loaded) {
  const VersionParts b = parts_of(built), l = parts_of(loaded);
  if (b.major == l.major && l.minor >= b.minor) return std::nullopt;
  return fmt::format(
      "cuDNN {} is loaded, older than the {} headers kbench was built with: NVIDIA does not guarantee an "
      "application built against {}.{} to work with {}.{} (it may load and then fail or misbehave when "
      "called); rebuild against the cuDNN that is loaded, or load {}.{} or newer",
      cudnn_version_text(loaded), cudnn_version_text(built), b.major, b.minor, l.major, l.minor, b.major, b.minor);
}

std::optional<std::string> loaded_cudnn_version_warning() {
  return cudnn_version_warning(CUDNN_VERSION, cudnnGetVersion());
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
