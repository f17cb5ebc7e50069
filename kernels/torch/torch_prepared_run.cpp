#include "torch/torch_prepared_run.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"

namespace kbench::torch {

namespace {

// The values every backend draws, copied into the buffer torch already holds (never reallocated).
void fill_seeded(std::vector<float>& tensor, const ConvProblem& problem, std::uint64_t seed, data::TensorRole role) {
  const std::vector<float> values = data::make_seeded(problem, seed, role);
  std::copy(values.begin(), values.end(), tensor.begin());
}

}  // namespace

std::vector<std::pair<std::string, std::string>> torch_properties(const TorchSession& session,
                                                                  const TorchSettings& settings,
                                                                  const TorchCall& call) {
  const InterpreterInfo& python = session.python().interpreter();
  std::vector<std::pair<std::string, std::string>> props{
      {"python", fmt::format("{} (Python {})", python.executable, python.version)},
      {"torch_version", session.facts().version},
      {"torch_cudnn_version", session.facts().cudnn_version},
      {"torch_mode", std::string(variant_name(settings.mode))},
  };
  if (!settings.module.empty()) props.emplace_back("module", settings.module);
  for (const auto& fact : call.facts()) props.push_back(fact);
  props.emplace_back("output", "allocated by torch, copied into kbench's buffer outside the timed region");
  return props;
}

std::string call_implementation(const ConvProblem& problem, const TorchSettings& settings, const TorchCall& call) {
  return call.implementation().empty() ? implementation_name(problem, settings.mode) : call.implementation();
}

bool warms_up_when_prepared(const TorchSettings& settings) {
  return settings.mode != TorchMode::eager || settings.cudnn_benchmark;
}

TorchCpuRun::TorchCpuRun(TorchSession& session, const ConvProblem& problem, const TorchSettings& settings)
    : session_(session),
      problem_(problem),
      settings_(settings),
      x_(static_cast<std::size_t>(problem.input_elements())),
      w_(static_cast<std::size_t>(problem.weight_elements())),
      b_(static_cast<std::size_t>(problem.bias_elements())),
      y_(static_cast<std::size_t>(problem.output_elements())) {
  const TorchBuffers buffers{x_.data(), w_.data(), problem.bias ? b_.data() : nullptr, y_.data(),
                             dlpack::DLDevice{dlpack::kDLCPU, 0}};
  call_ = std::make_unique<TorchCall>(session_, problem_, settings_, buffers);
  if (warms_up_when_prepared(settings_)) {
    fill_inputs(0);  // compile and autotune on real values, not zeros; the runner fills again
    run();
  }
}

std::vector<std::pair<std::string, std::string>> TorchCpuRun::properties() const {
  auto props = torch_properties(session_, settings_, *call_);
  if (settings_.allow_tf32) props.emplace_back("math_note", "tf32 requested; torch has no TF32 on the CPU: fp32");
  return props;
}

std::vector<float>& TorchCpuRun::buffer(Operand operand) {
  switch (operand) {
    case Operand::input: return x_;
    case Operand::weight: return w_;
    case Operand::bias: return b_;
    case Operand::output: break;
  }
  return y_;
}

const std::vector<float>& TorchCpuRun::buffer(Operand operand) const {
  return const_cast<TorchCpuRun*>(this)->buffer(operand);
}

void TorchCpuRun::fill_inputs(std::uint64_t seed) {
  for (const data::TensorRole role : data::roles_read(problem_))
    fill_seeded(buffer(data::role_operand(role)), problem_, seed, role);
  checksum_ = checksum();
  filled_ = true;
}

void TorchCpuRun::poison_output() {
  for (const Operand operand : computed_operands(problem_))
    std::fill(buffer(operand).begin(), buffer(operand).end(), std::numeric_limits<float>::quiet_NaN());
}

void TorchCpuRun::run() {
  if (!filled_) throw std::logic_error("torch backend: run() before fill_inputs()");
  call_->run(0);
  call_->copy_out(0);
}

// Like the reference: a whole CPU convolution is not sensitive to what the caches hold when it
// starts, so cold and warm samples are taken alike.
Sample TorchCpuRun::timed_run(const TimingOptions&) {
  const auto start = std::chrono::steady_clock::now();
  call_->run(0);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return Sample{elapsed.count(), false};
}

// The computed tensor is its parts one after the other: grad_weight's elements then grad_bias's.
std::vector<float> TorchCpuRun::read_output(std::span<const std::int64_t> indices) {
  const std::vector<Operand> parts = computed_operands(problem_);
  std::vector<float> all;
  for (const Operand operand : parts) all.insert(all.end(), buffer(operand).begin(), buffer(operand).end());
  if (indices.empty()) return all;
  std::vector<float> values;
  values.reserve(indices.size());
  for (const std::int64_t index : indices) {
    if (index < 0 || index >= static_cast<std::int64_t>(all.size()))
      throw std::out_of_range(fmt::format("{} index {} is outside its {} elements", computed_name(problem_), index,
                                          all.size()));
    values.push_back(all[static_cast<std::size_t>(index)]);
  }
  return values;
}

bool TorchCpuRun::inputs_unchanged() { return filled_ && checksum() == checksum_; }

// FNV-1a over the floats' bit patterns, the tensors the pass reads in turn, each closed by its length.
std::uint64_t TorchCpuRun::checksum() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const data::TensorRole role : data::roles_read(problem_)) {
    const std::vector<float>& tensor = buffer(data::role_operand(role));
    for (const float value : tensor) hash = (hash ^ std::bit_cast<std::uint32_t>(value)) * 0x100000001b3ULL;
    hash = (hash ^ tensor.size()) * 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace kbench::torch
