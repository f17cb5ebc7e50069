#include "plugin/plugin_host_run.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "data/host_tensors.hpp"
#include "plugin/plugin_problem.hpp"
#include "problem/conv_pass.hpp"

namespace kbench::plugin {

namespace {

std::vector<std::byte> storage_buffer(const gpu::TensorStorage& storage) {
  return std::vector<std::byte>(static_cast<std::size_t>(gpu::storage_bytes(storage)));
}

}  // namespace

PluginHostRun::PluginHostRun(const PluginChoice& choice, const ConvProblem& problem, const BackendOptions& options)
    : choice_(choice), problem_(problem), math_(options.math) {
  for (const Operand operand : {Operand::input, Operand::weight, Operand::bias, Operand::output}) {
    HostTensor& t = tensor(operand);
    t.storage = gpu::tensor_storage(problem_, operand);
    t.bytes = storage_buffer(t.storage);
  }
  const kbench_plugin_problem_t described = to_plugin_problem(problem_, math_);
  workspace_.resize(static_cast<std::size_t>(plugin_workspace_bytes(choice_, described)));
  tensors_.input = x_.bytes.data();
  tensors_.weight = w_.bytes.data();
  // The header promises NULL where there is no bias, and backward_data reads none.
  tensors_.bias = problem_.bias && problem_.pass != Pass::backward_data ? b_.bytes.data() : nullptr;
  tensors_.output = y_.bytes.data();
  tensors_.workspace = workspace_.empty() ? nullptr : workspace_.data();
  tensors_.workspace_bytes = workspace_.size();
  tensors_.stream = nullptr;
  instance_ = std::make_unique<PluginInstance>(choice_, described);
}

PluginHostRun::HostTensor& PluginHostRun::tensor(Operand operand) {
  switch (operand) {
    case Operand::input: return x_;
    case Operand::weight: return w_;
    case Operand::bias: return b_;
    case Operand::output: break;
  }
  return y_;
}

std::uint32_t PluginHostRun::bits_at(const HostTensor& t, std::int64_t offset) const {
  const std::size_t size = static_cast<std::size_t>(bytes_per_element(t.storage.dtype));
  if (size == 4) {
    std::uint32_t bits;
    std::memcpy(&bits, t.bytes.data() + static_cast<std::size_t>(offset) * size, size);
    return bits;
  }
  std::uint16_t bits;
  std::memcpy(&bits, t.bytes.data() + static_cast<std::size_t>(offset) * size, size);
  return bits;
}

void PluginHostRun::set_bits(HostTensor& t, std::int64_t offset, std::uint32_t bits) {
  const std::size_t size = static_cast<std::size_t>(bytes_per_element(t.storage.dtype));
  if (size == 4) {
    std::memcpy(t.bytes.data() + static_cast<std::size_t>(offset) * size, &bits, size);
    return;
  }
  const auto half = static_cast<std::uint16_t>(bits);
  std::memcpy(t.bytes.data() + static_cast<std::size_t>(offset) * size, &half, size);
}

void PluginHostRun::fill_inputs(std::uint64_t seed) {
  const float bound = data::init_bound(problem_);
  for (const data::TensorRole role : data::roles_read(problem_)) {
    HostTensor& t = tensor(data::role_operand(role));
    for (std::int64_t offset = 0; offset < t.storage.count; ++offset)
      set_bits(t, offset, gpu::seeded_element_bits(t.storage, seed, role, bound, offset));
  }
  checksum_ = input_checksum();
  filled_ = true;
}

void PluginHostRun::poison_output() {
  for (const Operand operand : computed_operands(problem_)) {
    HostTensor& t = tensor(operand);
    const std::uint32_t nan = gpu::nan_bits(t.storage.dtype);
    for (std::int64_t offset = 0; offset < t.storage.count; ++offset) set_bits(t, offset, nan);
  }
}

void PluginHostRun::run() {
  if (!filled_) throw std::logic_error("plugin backend: run() before fill_inputs()");
  instance_->run(tensors_);
}

// Like the reference: a whole CPU convolution does not depend on what the caches hold when it starts,
// so cold and warm samples are taken alike.
Sample PluginHostRun::timed_run(const TimingOptions&) {
  const auto start = std::chrono::steady_clock::now();
  instance_->run(tensors_);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return Sample{elapsed.count(), false};
}

// The computed tensor is its parts one after the other (grad_weight then grad_bias), each indexed logically.
std::vector<float> PluginHostRun::read_output(std::span<const std::int64_t> indices) {
  const std::vector<Operand> parts = computed_operands(problem_);
  const auto value_at = [&](std::int64_t index) {
    for (const Operand operand : parts) {
      const HostTensor& t = tensor(operand);
      if (index < t.storage.count)
        return gpu::decode_element(t.storage.dtype, bits_at(t, gpu::storage_offset(t.storage, index)));
      index -= t.storage.count;
    }
    throw std::out_of_range(fmt::format("{} index out of range", computed_name(problem_)));
  };
  std::vector<float> values;
  if (indices.empty()) {
    const std::int64_t total = computed_elements(problem_);
    values.reserve(static_cast<std::size_t>(total));
    for (std::int64_t i = 0; i < total; ++i) values.push_back(value_at(i));
    return values;
  }
  values.reserve(indices.size());
  for (const std::int64_t index : indices) {
    if (index < 0) throw std::out_of_range(fmt::format("{} index {} is negative", computed_name(problem_), index));
    values.push_back(value_at(index));
  }
  return values;
}

bool PluginHostRun::inputs_unchanged() { return filled_ && input_checksum() == checksum_; }

// The GPU runtime's order-free checksum (runtime/tensor_storage.hpp), over the tensors the pass reads.
std::uint64_t PluginHostRun::input_checksum() const {
  std::uint64_t sum = 0;
  for (const data::TensorRole role : data::roles_read(problem_)) {
    const HostTensor& t = const_cast<PluginHostRun*>(this)->tensor(data::role_operand(role));
    for (std::int64_t offset = 0; offset < t.storage.count; ++offset)
      sum += gpu::checksum_term(offset, bits_at(t, offset)) * static_cast<std::uint64_t>(role);
  }
  return sum;
}

}  // namespace kbench::plugin
