#pragma once
// One tensor as --dump writes it: in the problem's memory layout (channels last moves dim 1 behind the
// spatial dims: [N, H, W, C], weights [dim0, k..., dim1]) and in its dtype's bits (fp16 as numpy
// float16, bf16 as uint16 bit patterns, fp32 as float32). Values come in logical (NCHW) order, as every
// backend's read_output and the seeded generator give them.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "problem/memory_layout.hpp"

namespace kbench {

// The tensor's logical shape as PyTorch prints it (bias: [C_out]).
std::vector<std::int64_t> logical_shape(const ConvProblem& problem, Operand operand);
// The shape of its memory: logical for nchw and for bias, [dim0, spatial..., dim1] for nhwc.
std::vector<std::int64_t> memory_shape(const ConvProblem& problem, Operand operand);

// `logical` (one value per element, logical order) rearranged into memory order.
template <class T>
std::vector<T> to_memory_order(const ConvProblem& problem, Operand operand, std::span<const T> logical) {
  std::vector<T> memory(logical.size());
  for (std::size_t i = 0; i < logical.size(); ++i)
    memory[static_cast<std::size_t>(memory_offset(problem, operand, static_cast<std::int64_t>(i)))] = logical[i];
  return memory;
}

// The index's name of a dtype as stored: "float32", "float16", "bfloat16".
std::string dump_dtype_name(DType dtype);

// Writes `logical` to `path` as an .npy of the problem's dtype and layout; returns the dtype's index name.
std::string write_dump_tensor(const std::string& path, const ConvProblem& problem, Operand operand,
                              std::span<const float> logical);

}  // namespace kbench
