#include "plugin/plugin_host_run.hpp"

#include <chrono>
#include <stdexcept>

#include "plugin/plugin_problem.hpp"
#include "problem/conv_pass.hpp"

namespace kbench::plugin {

PluginHostRun::PluginHostRun(const PluginChoice& choice, const ConvProblem& problem, const BackendOptions& options)
    : choice_(choice), problem_(problem), math_(options.math), operands_(problem) {
  const kbench_plugin_problem_t described = to_plugin_problem(problem_, math_);
  workspace_.resize(static_cast<std::size_t>(plugin_workspace_bytes(choice_, described)));
  tensors_.input = operands_.data(Operand::input);
  tensors_.weight = operands_.data(Operand::weight);
  // The header promises NULL where there is no bias, and backward_data reads none.
  tensors_.bias = problem_.bias && problem_.pass != Pass::backward_data ? operands_.data(Operand::bias) : nullptr;
  tensors_.output = operands_.data(Operand::output);
  tensors_.workspace = workspace_.empty() ? nullptr : workspace_.data();
  tensors_.workspace_bytes = workspace_.size();
  tensors_.stream = nullptr;
  instance_ = std::make_unique<PluginInstance>(choice_, described);
}

void PluginHostRun::fill_inputs(std::uint64_t seed) {
  operands_.fill(seed);
  checksum_ = operands_.input_checksum();
  filled_ = true;
}

void PluginHostRun::poison_output() { operands_.poison(); }

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

std::vector<float> PluginHostRun::read_output(std::span<const std::int64_t> indices) { return operands_.read(indices); }

bool PluginHostRun::inputs_unchanged() { return filled_ && operands_.input_checksum() == checksum_; }

}  // namespace kbench::plugin
