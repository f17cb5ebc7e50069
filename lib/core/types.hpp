#pragma once
// Small vocabulary types shared by every layer.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kbench {

enum class OpKind { conv, conv_transpose };
enum class DType { fp32, fp16, bf16 };
// Where the channel axis lives in memory: nchw keeps PyTorch's [N, C, spatial...] (channels first),
// nhwc puts it last, [N, spatial..., C] (channels last), for every spatial rank.
enum class Layout { nchw, nhwc };
// fp32: IEEE fp32 arithmetic everywhere (no TF32). tf32: tensor-core TF32 allowed.
enum class MathMode { fp32, tf32 };
// Which of a convolution's three computations runs: the forward pass (output from input and weight),
// backward-data (grad_input from grad_output and weight) or backward-weights (grad_weight, and grad_bias
// with a bias, from input and grad_output), as autograd computes them.
enum class Pass { forward, backward_data, backward_weights };

std::string_view to_string(OpKind op);
std::string_view to_string(DType dtype);
std::string_view to_string(MathMode math);
std::string_view to_string(Layout layout);
std::string_view to_string(Pass pass);

std::optional<OpKind> parse_op_kind(std::string_view text);
std::optional<DType> parse_dtype(std::string_view text);
std::optional<MathMode> parse_math_mode(std::string_view text);
// nchw and nhwc for every rank; the rank-specific names (ncw/nwc, ncdhw/ndhwc) are synonyms.
std::optional<Layout> parse_layout(std::string_view text);
// forward, backward_data, backward_weights; the CUTLASS profiler's fprop, dgrad and wgrad are synonyms.
std::optional<Pass> parse_pass(std::string_view text);

constexpr std::int64_t bytes_per_element(DType dtype) { return dtype == DType::fp32 ? 4 : 2; }

// Unit roundoff (half an ulp of 1) of round-to-nearest: fp32 2^-24, fp16 2^-11, bf16 2^-8.
constexpr double unit_roundoff(DType dtype) {
  switch (dtype) {
    case DType::fp32: return 0x1p-24;
    case DType::fp16: return 0x1p-11;
    case DType::bf16: return 0x1p-8;
  }
  return 0x1p-24;
}

}  // namespace kbench
