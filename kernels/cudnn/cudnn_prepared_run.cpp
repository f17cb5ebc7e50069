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
  const CudnnApi api = descs_.shape().call.api;
  const auto name = [&](std::size_t i) { return algorithm_name(api, candidates[i].algo); };
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
    std::string reason = fmt::format("no usable cuDNN {} algorithm executes", api_noun(api));
    for (std::size_t i = 0; i < skipped_.size(); ++i) reason += (i ? "; " : ": ") + skipped_[i];
    throw CudnnError(CUDNN_STATUS_EXECUTION_FAILED, reason);
  }
  choice_ = candidates[*outcome.chosen];
}

std::string CudnnPreparedRun::implementation() const {
  return "cudnn:" + algorithm_name(descs_.shape().call.api, choice_.algo);
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
  switch (descs_.shape().call.bias) {
    case BiasStep::add_to_written: props.emplace_back("bias", "separate cudnnAddTensor, timed"); break;
    case BiasStep::gradient: props.emplace_back("grad_bias", "separate cudnnConvolutionBackwardBias, timed"); break;
    case BiasStep::none: break;
  }
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

ConvPointers CudnnPreparedRun::tensors() {
  const CudnnCall& call = descs_.shape().call;
  return {data(buffer_of(call, CudnnTensor::forward_input)), data(buffer_of(call, CudnnTensor::filter)),
          data(buffer_of(call, CudnnTensor::forward_output))};
}

void CudnnPreparedRun::enqueue(cudaStream_t stream) {
  KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream));
  execute(handle_->get(), descs_, choice_, tensors(), workspace_.data());
  const CudnnCall& call = descs_.shape().call;
  if (call.bias == BiasStep::none) return;
  // Scaling factors are float for every data type but double; the bias shares the tensors' dtype.
  // The bias step's tensor is never the filter (cudnn_pass.cpp), so it is one of the two tensors.
  const cudnnTensorDescriptor_t other = call.bias_operand == CudnnTensor::forward_input ? descs_.forward_input()
                                                                                        : descs_.forward_output();
  void* other_data = data(buffer_of(call, call.bias_operand));
  const float one = 1.0f;
  const float zero = 0.0f;
  if (call.bias == BiasStep::add_to_written) {
    KBENCH_CUDNN_CHECK(cudnnAddTensor(handle_->get(), &one, descs_.bias(), b_data(), &one, other, other_data));
  } else {
    // grad_bias = sum of grad_output over the batch and space; beta 0: the poisoned buffer is never read.
    KBENCH_CUDNN_CHECK(
        cudnnConvolutionBackwardBias(handle_->get(), &one, other, other_data, &zero, descs_.bias(), data(Operand::bias)));
  }
}

}  // namespace kbench::gpu
