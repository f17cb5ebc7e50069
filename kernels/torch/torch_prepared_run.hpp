#pragma once
// torch on CPU tensors over kbench's host buffers, timed by the CPU clock like the reference: the
// path CI exercises with Debian's python3-torch. The GPU path is torch_gpu_run.hpp.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "host/host_operands.hpp"
#include "torch/torch_flags.hpp"
#include "torch/torch_session.hpp"

namespace kbench::torch {

// What every torch result records: the Python used, torch's and its cuDNN's versions, the mode,
// the switches --math and --algo set, and what the helper reports of the prepared call.
std::vector<std::pair<std::string, std::string>> torch_properties(const TorchSession& session,
                                                                  const TorchSettings& settings, const TorchCall& call);

// What a result names as its implementation: the module's model, or torch's function (implementation_name).
std::string call_implementation(const ConvProblem& problem, const TorchSettings& settings, const TorchCall& call);

// The runner times every execution after the first verification, so a compiled call is made once
// while preparing (compilation, autotuning and cudnn.benchmark's search stay out of every sample).
bool warms_up_when_prepared(const TorchSettings& settings);

class TorchCpuRun final : public PreparedRun {
 public:
  TorchCpuRun(TorchSession& session, const ConvProblem& problem, const TorchSettings& settings);

  std::string implementation() const override { return call_implementation(problem_, settings_, *call_); }
  MathMode math_used() const override { return MathMode::fp32; }  // no TF32 on the CPU
  // torch's CPU convolutions may add the bias after the convolution's output is written, as on cuDNN.
  OutputRounding output_rounding() const override { return OutputRounding::bias_added_after; }
  std::vector<std::pair<std::string, std::string>> properties() const override;

  void fill_inputs(std::uint64_t seed) override;
  void poison_output() override;
  void run() override;                                     // the call, then its output copied into kbench's buffer
  Sample timed_run(const TimingOptions& timing) override;  // the call alone
  std::vector<float> read_output(std::span<const std::int64_t> indices) override;
  bool inputs_unchanged() override;

 private:
  TorchSession& session_;
  ConvProblem problem_;
  TorchSettings settings_;
  // One buffer per forward operand in the problem's dtype and layout, whatever the pass; a backward
  // pass's tensors live in those of their shapes (grad_output in y's, grad_input in x's).
  // Before the call: members go in reverse order, so torch's tensors over them go first.
  host::HostOperands operands_;
  std::uint64_t checksum_ = 0;
  bool filled_ = false;
  std::unique_ptr<TorchCall> call_;
};

}  // namespace kbench::torch
