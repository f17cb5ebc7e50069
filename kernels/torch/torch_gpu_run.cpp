#include "torch/torch_gpu_run.hpp"

#include <fmt/format.h>

#include "run/math_policy.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/tf32_override.hpp"
#include "torch/python_runtime.hpp"
#include "torch/torch_prepared_run.hpp"

namespace kbench::torch {

namespace {

std::uintptr_t as_integer(cudaStream_t stream) { return reinterpret_cast<std::uintptr_t>(stream); }

// torch raises a kernel fault as a Python RuntimeError ("CUDA error: an illegal memory access"): the
// CUDA context is asked, so that a fault throws as the CudaError every backend reports (the fault log
// then keeps the other backends from running on the lost context), and anything else as torch said it.
template <class Call>
void asking_context_on_error(const char* what, cudaStream_t stream, Call&& call) {
  try {
    call();
  } catch (const PythonError& e) {
    const std::string after = fmt::format("torch's {} raised {}: {}", what, e.exception_type(), e.message());
    gpu::check_context_after(after.c_str(), __FILE__, __LINE__, stream);
    throw;
  }
}

}  // namespace

TorchGpuRun::TorchGpuRun(TorchSession& session, const ConvProblem& problem, int device_index, const TorchSettings& settings)
    : GpuPreparedRun(problem, device_index), settings_(settings), session_(session) {
  // In the problem's dtype and layout; a backward pass writes its gradient into x's or w's and b's.
  const TorchBuffers buffers{x_data(), w_data(), problem.bias ? b_data() : nullptr, y_data(),
                             dlpack::DLDevice{dlpack::kDLCUDA, device()}};
  asking_context_on_error("preparation", stream(),
                          [&] { call_ = std::make_unique<TorchCall>(session_, problem, settings_, buffers); });
  if (warms_up_when_prepared(settings_) || aten_ops_requested()) {
    fill_inputs(0);  // compile, autotune and let cuDNN search on real values; the runner fills again
    if (warms_up_when_prepared(settings_)) {
      run();
      call_->record_warm_up();
    }
  }
  if (aten_ops_requested())  // after the warm-up: the call as it is timed, not its compilation
    asking_context_on_error("profiled call", stream(), [&] { call_->record_aten_ops(as_integer(stream())); });
}

TorchGpuRun::~TorchGpuRun() {
  (void)cudaDeviceSynchronize();  // nothing of torch's still running on the buffers when they go
  call_.reset();
}

MathMode TorchGpuRun::math_used() const {
  return reported_math(problem().dtype, settings_.allow_tf32 && !gpu::tf32_disabled_by_environment());
}

std::vector<std::pair<std::string, std::string>> TorchGpuRun::properties() const {
  auto props = torch_properties(session_, settings_, *call_);
  props.emplace_back("stream", "kbench's, as torch.cuda.ExternalStream");
  if (const auto value = gpu::nvidia_tf32_override()) props.emplace_back("nvidia_tf32_override", *value);
  return props;
}

void TorchGpuRun::enqueue(cudaStream_t stream) {
  asking_context_on_error("call", stream, [&] { call_->run(as_integer(stream)); });
}

void TorchGpuRun::run() {
  GpuPreparedRun::run();
  asking_context_on_error("copy of its output", stream(), [&] { call_->copy_out(as_integer(stream())); });
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
