#include "host/host_operands.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"

namespace kbench::host {

HostOperands::HostOperands(const ConvProblem& problem) : problem_(problem) {
  for (const Operand operand : {Operand::input, Operand::weight, Operand::bias, Operand::output}) {
    Tensor& t = tensor(operand);
    t.storage = gpu::tensor_storage(problem_, operand);
    t.bytes.resize(static_cast<std::size_t>(gpu::storage_bytes(t.storage)));
  }
}

void* HostOperands::data(Operand operand) {
  Tensor& t = tensor(operand);
  return t.bytes.empty() ? nullptr : t.bytes.data();
}

HostOperands::Tensor& HostOperands::tensor(Operand operand) {
  switch (operand) {
    case Operand::input: return x_;
    case Operand::weight: return w_;
    case Operand::bias: return b_;
    case Operand::output: break;
  }
  return y_;
}

const HostOperands::Tensor& HostOperands::tensor(Operand operand) const {
  return const_cast<HostOperands*>(this)->tensor(operand);
}

std::uint32_t HostOperands::bits_at(const Tensor& t, std::int64_t offset) {
  const auto size = static_cast<std::size_t>(bytes_per_element(t.storage.dtype));
  const std::byte* at = t.bytes.data() + static_cast<std::size_t>(offset) * size;
  if (size == 4) {
    std::uint32_t bits;
    std::memcpy(&bits, at, size);
    return bits;
  }
  std::uint16_t bits;
  std::memcpy(&bits, at, size);
  return bits;
}

void HostOperands::set_bits(Tensor& t, std::int64_t offset, std::uint32_t bits) {
  const auto size = static_cast<std::size_t>(bytes_per_element(t.storage.dtype));
  std::byte* at = t.bytes.data() + static_cast<std::size_t>(offset) * size;
  if (size == 4) {
    std::memcpy(at, &bits, size);
    return;
  }
  const auto half = static_cast<std::uint16_t>(bits);
  std::memcpy(at, &half, size);
}

void HostOperands::fill(std::uint64_t seed) {
  const float bound = data::init_bound(problem_);
  for (const data::TensorRole role : data::roles_read(problem_)) {
    Tensor& t = tensor(data::role_operand(role));
    for (std::int64_t offset = 0; offset < t.storage.count; ++offset)
      set_bits(t, offset, gpu::seeded_element_bits(t.storage, seed, role, bound, offset));
  }
}

void HostOperands::poison() {
  for (const Operand operand : computed_operands(problem_)) {
    Tensor& t = tensor(operand);
    const std::uint32_t nan = gpu::nan_bits(t.storage.dtype);
    for (std::int64_t offset = 0; offset < t.storage.count; ++offset) set_bits(t, offset, nan);
  }
}

std::vector<float> HostOperands::read(std::span<const std::int64_t> indices) const {
  const std::vector<Operand> parts = computed_operands(problem_);
  const auto value_at = [&](std::int64_t index) {
    if (index >= 0)
      for (const Operand operand : parts) {
        const Tensor& t = tensor(operand);
        if (index < t.storage.count)
          return gpu::decode_element(t.storage.dtype, bits_at(t, gpu::storage_offset(t.storage, index)));
        index -= t.storage.count;
      }
    throw std::out_of_range(fmt::format("{} index {} is outside its {} elements", computed_name(problem_), index,
                                        computed_elements(problem_)));
  };
  std::vector<float> values;
  if (indices.empty()) {
    const std::int64_t total = computed_elements(problem_);
    values.reserve(static_cast<std::size_t>(total));
    for (std::int64_t i = 0; i < total; ++i) values.push_back(value_at(i));
    return values;
  }
  values.reserve(indices.size());
  for (const std::int64_t index : indices) values.push_back(value_at(index));
  return values;
}

std::uint64_t HostOperands::input_checksum() const {
  std::uint64_t sum = 0;
  for (const data::TensorRole role : data::roles_read(problem_)) {
    const Tensor& t = tensor(data::role_operand(role));
    for (std::int64_t offset = 0; offset < t.storage.count; ++offset)
      sum += gpu::checksum_term(offset, bits_at(t, offset)) * static_cast<std::uint64_t>(role);
  }
  return sum;
}

}  // namespace kbench::host
