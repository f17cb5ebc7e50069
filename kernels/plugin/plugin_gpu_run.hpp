#pragma once
// A CUDA plugin on kbench's device buffers and stream (built with CUDA only): enqueue() is the plugin's
// run(), so GpuPreparedRun's timing (held stream, events, L2 flush, graph replay) brackets its kernels
// as it does cuDNN's.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "plugin/plugin_instance.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/gpu_prepared_run.hpp"

namespace kbench::plugin {

class PluginGpuRun final : public gpu::GpuPreparedRun {
 public:
  // `workspace_bytes`: what the plugin asked for, already counted by the backend's fits().
  PluginGpuRun(const PluginChoice& choice, const ConvProblem& problem, const BackendOptions& options,
               std::uint64_t workspace_bytes);
  ~PluginGpuRun() override;

  std::string implementation() const override { return implementation_name(choice_); }
  MathMode math_used() const override { return math_; }
  std::vector<std::pair<std::string, std::string>> properties() const override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  PluginChoice choice_;
  MathMode math_;
  gpu::DeviceBuffer<std::byte> workspace_;
  kbench_plugin_tensors_t tensors_{};
  std::unique_ptr<PluginInstance> instance_;  // released before the buffers go
};

}  // namespace kbench::plugin
