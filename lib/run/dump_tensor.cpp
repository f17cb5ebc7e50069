#include "run/dump_tensor.hpp"

#include "core/half.hpp"
#include "data/npy.hpp"
#include "problem/problem_metrics.hpp"

namespace kbench {

std::vector<std::int64_t> logical_shape(const ConvProblem& p, Operand operand) {
  switch (operand) {
    case Operand::input: return input_shape(p);
    case Operand::weight: return weight_shape(p);
    case Operand::output: return output_shape(p);
    case Operand::bias: break;
  }
  return {p.bias_elements()};
}

std::vector<std::int64_t> memory_shape(const ConvProblem& p, Operand operand) {
  std::vector<std::int64_t> shape = logical_shape(p, operand);
  if (p.layout == Layout::nchw || operand == Operand::bias) return shape;
  const std::int64_t channels = shape[1];  // [d0, C, s...] -> [d0, s..., C]
  shape.erase(shape.begin() + 1);
  shape.push_back(channels);
  return shape;
}

std::string dump_dtype_name(DType dtype) {
  switch (dtype) {
    case DType::fp16: return "float16";
    case DType::bf16: return "bfloat16";
    case DType::fp32: break;
  }
  return "float32";
}

std::string write_dump_tensor(const std::string& path, const ConvProblem& p, Operand operand,
                              std::span<const float> logical) {
  const std::vector<float> memory = to_memory_order(p, operand, logical);
  const std::vector<std::int64_t> shape = memory_shape(p, operand);
  if (p.dtype == DType::fp32) {
    data::write_npy(path, std::span<const float>(memory), shape);
  } else {
    // The values already hold the dtype's (seeded values are rounded to it, outputs are what the backend
    // stored); converting rounds only a value a backend got wrong, which the verification reports anyway.
    std::vector<std::uint16_t> bits(memory.size());
    for (std::size_t i = 0; i < memory.size(); ++i)
      bits[i] = p.dtype == DType::fp16 ? fp16_bits_from_float(memory[i]) : bf16_bits_from_float(memory[i]);
    data::write_npy(path, std::span<const std::uint16_t>(bits), shape, p.dtype == DType::fp16 ? "<f2" : "<u2");
  }
  return dump_dtype_name(p.dtype);
}

}  // namespace kbench
