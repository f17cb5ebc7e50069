#pragma once
// kbench's four tensors in host memory, for the backends that run on the CPU (host plugins, torch
// without a GPU): stored in the problem's dtype and layout with the GPU runtime's arithmetic
// (runtime/tensor_storage.hpp), so a CPU backend sees the bytes a GPU backend would. One buffer per
// forward operand whatever the pass; a gradient lives in the buffer of its shape (problem/conv_pass.hpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "problem/conv_problem.hpp"
#include "problem/memory_layout.hpp"
#include "runtime/tensor_storage.hpp"

namespace kbench::host {

class HostOperands {
 public:
  explicit HostOperands(const ConvProblem& problem);
  // Never reallocated: a backend may hand these addresses out once (torch's tensors, a plugin's run).
  HostOperands(const HostOperands&) = delete;
  HostOperands& operator=(const HostOperands&) = delete;

  const ConvProblem& problem() const { return problem_; }
  // The operand's bytes (null for a bias the problem does not have).
  void* data(Operand operand);

  // The tensors the pass reads, drawn from `seed` as every backend draws them.
  void fill(std::uint64_t seed);
  // The tensors the pass computes, all NaN of the dtype: an element never written fails verification.
  void poison();
  // The computed tensor (its parts one after the other: grad_weight, then grad_bias) at logical
  // `indices`, widened to float; every element when `indices` is empty. Throws std::out_of_range.
  std::vector<float> read(std::span<const std::int64_t> indices) const;
  // An order-free checksum of the tensors the pass reads (the GPU runtime's), to see a backend write one.
  std::uint64_t input_checksum() const;

 private:
  struct Tensor {
    gpu::TensorStorage storage;
    std::vector<std::byte> bytes;  // operator new's alignment, enough for every dtype
  };
  Tensor& tensor(Operand operand);
  const Tensor& tensor(Operand operand) const;
  static std::uint32_t bits_at(const Tensor& t, std::int64_t offset);
  static void set_bits(Tensor& t, std::int64_t offset, std::uint32_t bits);

  ConvProblem problem_;
  Tensor x_, w_, b_, y_;
};

}  // namespace kbench::host
