#pragma once
// Small vocabulary types shared by every layer.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kbench {

enum class OpKind { conv, conv_transpose };
enum class DType { fp32, fp16, bf16 };
// fp32: IEEE fp32 arithmetic everywhere (no TF32). tf32: tensor-core TF32 allowed.
enum class MathMode { fp32, tf32 };

std::string_view to_string(OpKind op);
std::string_view to_string(DType dtype);
std::string_view to_string(MathMode math);

std::optional<OpKind> parse_op_kind(std::string_view text);
std::optional<DType> parse_dtype(std::string_view text);
std::optional<MathMode> parse_math_mode(std::string_view text);

constexpr std::int64_t bytes_per_element(DType dtype) { return dtype == DType::fp32 ? 4 : 2; }

}  // namespace kbench
