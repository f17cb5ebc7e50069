#pragma once
// One problem set up on cuDNN: descriptors built, algorithm chosen, workspace allocated.
// enqueue() is the convolution (forward, or backward data for a transposed convolution) and,
// with a bias, a separate cudnnAddTensor: both lie inside the timed region, since the legacy
// API has no fused bias for backward data and PyTorch adds the bias the same way.
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

class CudnnPreparedRun final : public GpuPreparedRun {
 public:
  // Throws CudnnError when no algorithm can be chosen (supports() has normally ruled that out).
  CudnnPreparedRun(const ConvProblem& problem, const BackendOptions& options, std::shared_ptr<CudnnHandle> handle);

  std::string implementation() const override;
  MathMode math_used() const override;
  std::vector<std::pair<std::string, std::string>> properties() const override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  ConvPointers tensors() const { return {x(), w(), y()}; }

  std::shared_ptr<CudnnHandle> handle_;
  ConvDescriptors descs_;
  AlgoChoice choice_;
  DeviceBuffer<unsigned char> workspace_;
};

}  // namespace kbench::gpu
