#include "torch/torch_gpu_run.hpp"

#include "runtime/cuda_check.hpp"
#include "torch/torch_prepared_run.hpp"

namespace kbench::torch {

namespace {

std::uintptr_t as_integer(cudaStream_t stream) { return reinterpret_cast<std::uintptr_t>(stream); }

}  // namespace

TorchGpuRun::TorchGpuRun(TorchSession& session, const ConvProblem& problem, int device_index, const TorchSettings& settings)
    : GpuPreparedRun(problem, device_index), settings_(settings), session_(session) {
  // In the problem's dtype and layout; a backward pass writes its gradient into x's or w's and b's.
  const TorchBuffers buffers{x_data(), w_data(), problem.bias ? b_data() : nullptr, y_data(),
                             dlpack::DLDevice{dlpack::kDLCUDA, device()}};
  call_ = std::make_unique<TorchCall>(session_, problem, settings_, buffers);
  if (warms_up_when_prepared(settings_)) {
    fill_inputs(0);  // compile, autotune and let cuDNN search on real values; the runner fills again
    run();
  }
}

TorchGpuRun::~TorchGpuRun() {
  (void)cudaDeviceSynchronize();  // nothing of torch's still running on the buffers when they go
  call_.reset();
}

std::vector<std::pair<std::string, std::string>> TorchGpuRun::properties() const {
  auto props = torch_properties(session_, settings_, *call_);
  props.emplace_back("stream", "kbench's, as torch.cuda.ExternalStream");
  return props;
}

void TorchGpuRun::enqueue(cudaStream_t stream) { call_->run(as_integer(stream)); }

void TorchGpuRun::run() {
  GpuPreparedRun::run();
  call_->copy_out(as_integer(stream()));
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

Sample TorchGpuRun::timed_run(const TimingOptions& timing) {
  TimingOptions plain = timing;
  if (plain.graph) {
    add_warning("--graph is not applied to torch (it allocates its output inside the call): plain launches timed");
    plain.graph = false;
  }
  return GpuPreparedRun::timed_run(plain);
}

}  // namespace kbench::torch
