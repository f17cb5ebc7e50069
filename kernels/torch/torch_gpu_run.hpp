#pragma once
// torch on kbench's device buffers and kbench's stream: built with CUDA only. The tensors are
// DLPack views of GpuPreparedRun's x, w, b and y; enqueue() runs the call under
// torch.cuda.ExternalStream(stream), so GpuPreparedRun's timing (held stream, events, L2 flush)
// brackets torch's kernels exactly as it does cuDNN's.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "runtime/gpu_prepared_run.hpp"
#include "torch/torch_flags.hpp"
#include "torch/torch_prepared_run.hpp"
#include "torch/torch_session.hpp"

namespace kbench::torch {

class TorchGpuRun final : public gpu::GpuPreparedRun {
 public:
  TorchGpuRun(TorchSession& session, const ConvProblem& problem, int device_index, const TorchSettings& settings);
  ~TorchGpuRun() override;

  std::string implementation() const override { return call_implementation(problem(), settings_, *call_); }
  // kbench's one rule (run/math_policy.hpp): half data is fp32; fp32 data tf32 where cuDNN's allow_tf32
  // was on and NVIDIA_TF32_OVERRIDE=0 did not withdraw it (torch's cuDNN honours it like kbench's).
  MathMode math_used() const override;
  // F.convNd(x, w, b) on cuDNN adds the bias to the rounded convolution (at::convolution), and a
  // compiled graph adds it in a kernel of its own: two roundings of half outputs.
  OutputRounding output_rounding() const override { return OutputRounding::bias_added_after; }
  std::vector<std::pair<std::string, std::string>> properties() const override;

  // The call, then (untimed) its output copied into kbench's y on the run's stream.
  void run() override;
  // --graph is not applied: torch allocates its output inside the call, which a capture outside
  // torch.cuda.graph cannot hold; the samples are plain launches, and the result says so.
  Sample timed_run(const TimingOptions& timing) override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  TorchSettings settings_;
  TorchSession& session_;
  std::unique_ptr<TorchCall> call_;  // released before GpuPreparedRun's buffers (a base, destroyed after)
};

}  // namespace kbench::torch
