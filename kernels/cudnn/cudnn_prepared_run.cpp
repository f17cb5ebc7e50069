#include "cudnn/cudnn_prepared_run.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_trial.hpp"
#include "cudnn/cudnn_types.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/tf32_override.hpp"

namespace kbench::gpu {

CudnnPreparedRun::CudnnPreparedRun(const ConvProblem& problem, const BackendOptions& options,
                                   std::shared_ptr<CudnnHandle> handle)
    : GpuPreparedRun(problem, options.device),
      handle_(std::move(handle)),
      stream_reset_(handle_),
      descs_(cudnn_shape(problem), initial_math(options.math, problem.dtype)) {
  if (handle_->device() != device())
    throw std::logic_error(
        fmt::format("cuDNN handle for device {} given to a run on device {}", handle_->device(), device()));
  if (options.algo_search == AlgoSearch::exhaustive && options.variant.empty()) {
    // cuDNN times each algorithm on our buffers: give it real data, not whatever cudaMalloc
    // left there (zeros run faster than real data on some kernels). The runner fills again
    // with its own seed before verifying.
    fill_inputs(0);
    const std::size_t search_bytes = exhaustive_search_workspace(handle_->get(), descs_, options.workspace_limit_bytes);
    DeviceBuffer<unsigned char> search_workspace(static_cast<std::int64_t>(search_bytes));
    KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream()));
    const Selection found = select_exhaustive(handle_->get(), descs_, tensors(), search_workspace.data(), search_bytes,
                                              options.workspace_limit_bytes, options.math);
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
    commit_to_first_that_runs(found);
  } else {
    commit_to_first_that_runs(select_without_running(handle_->get(), descs_, options));
  }
}

void CudnnPreparedRun::commit_to_first_that_runs(const Selection& selection) {
  if (!selection.choice) throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, selection.reason);
  std::vector<AlgoChoice> candidates{*selection.choice};
  candidates.insert(candidates.end(), selection.alternatives.begin(), selection.alternatives.end());
  const bool backward = descs_.shape().backward_data;
  const auto name = [&](std::size_t i) { return algorithm_name(backward, candidates[i].algo); };
  const TrialOutcome outcome = first_that_runs(candidates.size(), name, [&](std::size_t i) {
    const AlgoChoice& c = candidates[i];
    descs_.set_math(c.math);
    workspace_ = DeviceBuffer<unsigned char>();  // the previous candidate's, freed before the next is allocated
    workspace_ = DeviceBuffer<unsigned char>(static_cast<std::int64_t>(c.workspace_bytes));
    KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream()));
    execute(handle_->get(), descs_, c, tensors(), workspace_.data());
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  });
  skipped_ = outcome.skipped;
  if (!outcome.chosen) {
    std::string reason = fmt::format("no usable cuDNN {} algorithm executes", backward ? "backward-data" : "forward");
    for (std::size_t i = 0; i < skipped_.size(); ++i) reason += (i ? "; " : ": ") + skipped_[i];
    throw CudnnError(CUDNN_STATUS_EXECUTION_FAILED, reason);
  }
  choice_ = candidates[*outcome.chosen];
}

std::string CudnnPreparedRun::implementation() const {
  return "cudnn:" + algorithm_name(descs_.shape().backward_data, choice_.algo);
}

MathMode CudnnPreparedRun::math_used() const {
  // cuDNN does not say whether a kernel allowed TF32 actually took it; "tf32" here means the
  // chosen algorithm ran with tensor-core TF32 permitted (docs/gpu-runtime.md). Under
  // NVIDIA_TF32_OVERRIDE=0 it is not permitted, whatever the math type says. Half data: fp32
  // accumulation of exact products, whichever math type (cudnn_types.hpp).
  return cudnn_math_used(problem().dtype, choice_.math, tf32_disabled_by_environment());
}

std::vector<std::pair<std::string, std::string>> CudnnPreparedRun::properties() const {
  std::vector<std::pair<std::string, std::string>> props = choice_properties(descs_, choice_);
  if (!skipped_.empty()) {
    std::string failed;
    for (const std::string& s : skipped_) failed += (failed.empty() ? "" : "; ") + s;
    props.emplace_back("algorithms_failed_trial", failed);
  }
  if (const auto value = nvidia_tf32_override()) props.emplace_back("nvidia_tf32_override", *value);
  if (problem().bias) props.emplace_back("bias", "separate cudnnAddTensor, timed");  // in the data type
  return props;
}

std::vector<std::string> CudnnPreparedRun::warnings() const {
  std::vector<std::string> out = GpuPreparedRun::warnings();
  if (!skipped_.empty())
    out.push_back(
        fmt::format("cuDNN's first choice did not execute; ran {} instead ({})", implementation(), skipped_.front()));
  if (tf32_disabled_by_environment() && problem().dtype == DType::fp32 && choice_.math != CUDNN_FMA_MATH)
    out.push_back("NVIDIA_TF32_OVERRIDE=0 is set: cuDNN ran FP32 FMA kernels where TF32 was allowed");
  return out;
}

void CudnnPreparedRun::enqueue(cudaStream_t stream) {
  KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream));
  execute(handle_->get(), descs_, choice_, tensors(), workspace_.data());
  if (problem().bias) {
    // Scaling factors are float for every data type but double; b and y share the dtype.
    const float one = 1.0f;
    KBENCH_CUDNN_CHECK(cudnnAddTensor(handle_->get(), &one, descs_.bias(), b_data(), &one,
                                      descs_.shape().backward_data ? descs_.forward_input() : descs_.forward_output(),
                                      y_data()));
  }
}

}  // namespace kbench::gpu
