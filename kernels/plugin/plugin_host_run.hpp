#pragma once
// A host-memory plugin on kbench's host buffers, timed by the CPU clock like the reference: the
// path CI exercises. Buffers hold the problem's dtype and layout (host/host_operands.hpp, the same
// arithmetic the GPU fills use), one per forward operand whatever the pass (problem/conv_pass.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "host/host_operands.hpp"
#include "plugin/plugin_instance.hpp"

namespace kbench::plugin {

class PluginHostRun final : public PreparedRun {
 public:
  PluginHostRun(const PluginChoice& choice, const ConvProblem& problem, const BackendOptions& options);

  std::string implementation() const override { return implementation_name(choice_); }
  MathMode math_used() const override { return math_; }
  std::vector<std::pair<std::string, std::string>> properties() const override {
    return plugin_properties(choice_, workspace_.size());
  }

  void fill_inputs(std::uint64_t seed) override;
  void poison_output() override;
  void run() override;
  Sample timed_run(const TimingOptions& timing) override;  // run() alone, by the steady clock
  std::vector<float> read_output(std::span<const std::int64_t> indices) override;
  bool inputs_unchanged() override;

 private:
  PluginChoice choice_;
  ConvProblem problem_;
  MathMode math_;
  host::HostOperands operands_;
  std::vector<std::byte> workspace_;
  kbench_plugin_tensors_t tensors_{};
  std::unique_ptr<PluginInstance> instance_;  // after the buffers: released before they are freed
  std::uint64_t checksum_ = 0;
  bool filled_ = false;
};

}  // namespace kbench::plugin
