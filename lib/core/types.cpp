#include "core/types.hpp"

namespace kbench {

std::string_view to_string(OpKind op) { return op == OpKind::conv ? "conv" : "conv_transpose"; }

std::string_view to_string(DType dtype) {
  switch (dtype) {
    case DType::fp32: return "fp32";
    case DType::fp16: return "fp16";
    case DType::bf16: return "bf16";
  }
  return "?";
}

std::string_view to_string(MathMode math) { return math == MathMode::fp32 ? "fp32" : "tf32"; }

std::string_view to_string(Layout layout) { return layout == Layout::nchw ? "nchw" : "nhwc"; }

std::string_view to_string(Pass pass) {
  switch (pass) {
    case Pass::forward: return "forward";
    case Pass::backward_data: return "backward_data";
    case Pass::backward_weights: return "backward_weights";
  }
  return "?";
}

std::optional<OpKind> parse_op_kind(std::string_view text) {
  if (text == "conv") return OpKind::conv;
  if (text == "conv_transpose") return OpKind::conv_transpose;
  return std::nullopt;
}

std::optional<DType> parse_dtype(std::string_view text) {
  if (text == "fp32") return DType::fp32;
  if (text == "fp16") return DType::fp16;
  if (text == "bf16") return DType::bf16;
  return std::nullopt;
}

std::optional<MathMode> parse_math_mode(std::string_view text) {
  if (text == "fp32") return MathMode::fp32;
  if (text == "tf32") return MathMode::tf32;
  return std::nullopt;
}

std::optional<Layout> parse_layout(std::string_view text) {
  if (text == "nchw" || text == "ncw" || text == "ncdhw") return Layout::nchw;
  if (text == "nhwc" || text == "nwc" || text == "ndhwc") return Layout::nhwc;
  return std::nullopt;
}

std::optional<Pass> parse_pass(std::string_view text) {
  if (text == "forward" || text == "fprop") return Pass::forward;
  if (text == "backward_data" || text == "dgrad") return Pass::backward_data;
  if (text == "backward_weights" || text == "wgrad") return Pass::backward_weights;
  return std::nullopt;
}

}  // namespace kbench
