#include "plugin/plugin_gpu_run.hpp"

#include "plugin/plugin_problem.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::plugin {

PluginGpuRun::PluginGpuRun(const PluginChoice& choice, const ConvProblem& problem, const BackendOptions& options,
                           std::uint64_t workspace_bytes)
    : GpuPreparedRun(problem, options.device),
      choice_(choice),
      math_(options.math),
      workspace_(static_cast<std::int64_t>(workspace_bytes)) {
  tensors_.input = x_data();
  tensors_.weight = w_data();
  tensors_.bias = problem.bias && problem.pass != Pass::backward_data ? b_data() : nullptr;
  tensors_.output = y_data();
  tensors_.workspace = workspace_.data();
  tensors_.workspace_bytes = workspace_.bytes();
  instance_ = std::make_unique<PluginInstance>(choice_, to_plugin_problem(problem, math_));
}

PluginGpuRun::~PluginGpuRun() {
  (void)cudaDeviceSynchronize();  // nothing of the plugin's still running when its state and buffers go
  instance_.reset();
}

std::vector<std::pair<std::string, std::string>> PluginGpuRun::properties() const {
  auto props = plugin_properties(choice_, workspace_.bytes());
  props.emplace_back("stream", "kbench's");
  return props;
}

// A launch error the plugin did not report is this run's, not a later one's.
void PluginGpuRun::enqueue(cudaStream_t stream) {
  tensors_.stream = stream;
  instance_->run(tensors_);
  KBENCH_CUDA_CHECK(cudaPeekAtLastError());
}

}  // namespace kbench::plugin
