#include "cudnn/cudnn_prepared_run.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

AlgoChoice require(const Selection& selection) {
  if (!selection.choice) throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, selection.reason);
  return *selection.choice;
}

}  // namespace

CudnnPreparedRun::CudnnPreparedRun(const ConvProblem& problem, const BackendOptions& options,
                                   std::shared_ptr<CudnnHandle> handle)
    : GpuPreparedRun(problem, options.device),
      handle_(std::move(handle)),
      descs_(cudnn_shape(problem), initial_math(options.math)) {
  if (handle_->device() != device())
    throw std::logic_error(fmt::format("cuDNN handle for device {} given to a run on device {}", handle_->device(),
                                       device()));
  if (options.algo_search == AlgoSearch::exhaustive && options.variant.empty()) {
    // cuDNN times each algorithm on our buffers: give it real data, not whatever cudaMalloc
    // left there (zeros run faster than real data on some kernels). The runner fills again
    // with its own seed before verifying.
    fill_inputs(0);
    const std::size_t search_bytes =
        exhaustive_search_workspace(handle_->get(), descs_, options.workspace_limit_bytes);
    DeviceBuffer<unsigned char> search_workspace(static_cast<std::int64_t>(search_bytes));
    KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream()));
    choice_ = require(select_exhaustive(handle_->get(), descs_, tensors(), search_workspace.data(), search_bytes,
                                        options.workspace_limit_bytes, options.math));
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  } else {
    choice_ = require(select_without_running(handle_->get(), descs_, options));
  }
  workspace_ = DeviceBuffer<unsigned char>(static_cast<std::int64_t>(choice_.workspace_bytes));
}

std::string CudnnPreparedRun::implementation() const {
  return "cudnn:" + algorithm_name(descs_.shape().backward_data, choice_.algo);
}

MathMode CudnnPreparedRun::math_used() const {
  // cuDNN does not say whether a kernel allowed TF32 actually took it; "tf32" here means the
  // chosen algorithm ran with tensor-core TF32 permitted (docs/gpu-runtime.md).
  return choice_.math == CUDNN_FMA_MATH ? MathMode::fp32 : MathMode::tf32;
}

std::vector<std::pair<std::string, std::string>> CudnnPreparedRun::properties() const {
  std::vector<std::pair<std::string, std::string>> props = choice_properties(descs_, choice_);
  if (problem().bias) props.emplace_back("bias", "separate cudnnAddTensor, timed");
  return props;
}

void CudnnPreparedRun::enqueue(cudaStream_t stream) {
  KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream));
  execute(handle_->get(), descs_, choice_, tensors(), workspace_.data());
  if (problem().bias) {
    const float one = 1.0f;
    KBENCH_CUDNN_CHECK(cudnnAddTensor(handle_->get(), &one, descs_.bias(), b(), &one,
                                      descs_.shape().backward_data ? descs_.forward_input() : descs_.forward_output(),
                                      y()));
  }
}

}  // namespace kbench::gpu
