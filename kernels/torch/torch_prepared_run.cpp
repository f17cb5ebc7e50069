#include "torch/torch_prepared_run.hpp"

#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

namespace kbench::torch {

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
      operands_(problem) {
  const TorchBuffers buffers{operands_.data(Operand::input), operands_.data(Operand::weight),
                             operands_.data(Operand::bias), operands_.data(Operand::output),
                             dlpack::DLDevice{dlpack::kDLCPU, 0}};
  call_ = std::make_unique<TorchCall>(session_, problem_, settings_, buffers);
  if (warms_up_when_prepared(settings_)) {
    fill_inputs(0);  // compile and autotune on real values, not zeros; the runner fills again
    run();
    call_->record_warm_up();
  }
  if (aten_ops_requested()) {
    if (!filled_) fill_inputs(0);
    call_->record_aten_ops(0);  // after the warm-up: the call as it is timed, not its compilation
  }
}

std::vector<std::pair<std::string, std::string>> TorchCpuRun::properties() const {
  auto props = torch_properties(session_, settings_, *call_);
  if (settings_.allow_tf32) props.emplace_back("math_note", "tf32 requested; torch has no TF32 on the CPU: fp32");
  return props;
}

void TorchCpuRun::fill_inputs(std::uint64_t seed) {
  operands_.fill(seed);
  checksum_ = operands_.input_checksum();
  filled_ = true;
}

void TorchCpuRun::poison_output() { operands_.poison(); }

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

std::vector<float> TorchCpuRun::read_output(std::span<const std::int64_t> indices) { return operands_.read(indices); }

bool TorchCpuRun::inputs_unchanged() { return filled_ && operands_.input_checksum() == checksum_; }

}  // namespace kbench::torch
