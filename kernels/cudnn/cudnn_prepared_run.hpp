#pragma once
// One problem set up on cuDNN: descriptors built, algorithm chosen and run once, workspace allocated.
// enqueue() is the pass's call (cudnn_pass.hpp: forward, backward data or backward filter) and, with
// a bias, a separate step: on the forward pass cudnnAddTensor, on backward_weights
// cudnnConvolutionBackwardBias into grad_bias. Both lie inside the timed region, since the legacy
// API has no fused bias for backward data and PyTorch adds the bias (and reduces grad_bias) the same
// way.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_descriptors.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/gpu_prepared_run.hpp"

namespace kbench::gpu {

// The shared handle is pointed at a run's stream while the run enqueues; this puts it back on the
// default stream before the run's stream is destroyed, so later queries (other runs' supports(),
// cudnnDestroy) never use a dead stream. Also when the run's constructor throws half-way.
class HandleStreamReset {
 public:
  explicit HandleStreamReset(std::shared_ptr<CudnnHandle> handle) : handle_(std::move(handle)) {}
  ~HandleStreamReset() { (void)cudnnSetStream(handle_->get(), nullptr); }
  HandleStreamReset(const HandleStreamReset&) = delete;
  HandleStreamReset& operator=(const HandleStreamReset&) = delete;

 private:
  std::shared_ptr<CudnnHandle> handle_;
};

class CudnnPreparedRun final : public GpuPreparedRun {
 public:
  // Throws CudnnError when no algorithm can be chosen (supports() has normally ruled that out), or
  // when none of the usable ones executes.
  CudnnPreparedRun(const ConvProblem& problem, const BackendOptions& options, std::shared_ptr<CudnnHandle> handle);

  std::string implementation() const override;
  MathMode math_used() const override;
  std::vector<std::pair<std::string, std::string>> properties() const override;
  std::vector<std::string> warnings() const override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  // The buffers behind the descriptors for the pass's call (cudnn_pass.hpp).
  ConvPointers tensors();
  // Runs the selection's choice once, else each alternative in turn; keeps the first that runs.
  void commit_to_first_that_runs(const Selection& selection);

  std::shared_ptr<CudnnHandle> handle_;
  HandleStreamReset stream_reset_;  // after handle_: reset before the handle may go
  ConvDescriptors descs_;
  AlgoChoice choice_;
  std::vector<std::string> skipped_;  // usable algorithms that failed their trial run, with why
  DeviceBuffer<unsigned char> workspace_;
};

}  // namespace kbench::gpu
