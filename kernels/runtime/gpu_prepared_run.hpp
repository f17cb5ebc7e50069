#pragma once
// The part of PreparedRun every GPU backend shares: device buffers for x, w, b and y in the problem's
// dtype and layout, whatever the pass (a gradient lives in the buffer of the forward operand of its shape:
// grad_output in y's, grad_input in x's, grad_weight and grad_bias in w's and b's; problem/conv_pass.hpp),
// the operands the pass reads filled on the device from the seed, NaN poisoning, checksums of the inputs,
// sampled read-back (logical indices, values widened to float), and the cold/hot CUDA-event timing of
// one execution. A backend derives from it and supplies enqueue().
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "data/counter_rng.hpp"
#include "problem/conv_problem.hpp"
#include "runtime/cuda_handles.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/tensor_storage.hpp"

namespace kbench::gpu {

class L2Flusher;
class SmClockProbe;
class StreamBlocker;

class GpuPreparedRun : public PreparedRun {
 public:
  // Allocates every buffer on `device` (already checked by Backend::fits) and creates a stream.
  GpuPreparedRun(const ConvProblem& problem, int device);
  ~GpuPreparedRun() override;

  void fill_inputs(std::uint64_t seed) override;
  void poison_output() override;
  void run() override;  // enqueue() then a device-wide synchronize
  // Cold: L2 flushed first. Graph: enqueue() captured once into a CUDA graph, then replayed.
  // The stream is held by a blocking kernel while the host enqueues, so the events bracket only the
  // device's execution; a device-wide synchronize precedes reading them, so work a backend forks
  // onto other streams is finished too. Steps in timing_sequence.hpp; see docs/gpu-runtime.md.
  Sample timed_run(const TimingOptions& timing) override;
  std::vector<float> read_output(std::span<const std::int64_t> indices) override;
  bool inputs_unchanged() override;
  std::vector<std::string> warnings() const override { return warnings_; }

  // Device memory a run of `problem` takes on `device`: x, w, b, y (by the dtype's element size) and
  // the L2 flush buffer of cold sampling. A backend adds its own (a cuDNN workspace) and checks the sum in fits().
  static std::int64_t device_bytes_needed(const ConvProblem& problem, int device);

 protected:
  // Launch one complete execution (all kernels, bias included) on `stream`; no synchronisation.
  virtual void enqueue(cudaStream_t stream) = 0;

  const ConvProblem& problem() const { return problem_; }
  cudaStream_t stream() const { return stream_.get(); }
  // fp32 problems only (throws std::logic_error otherwise): the fp32 kernels' typed view.
  const float* x() const { return as_fp32(x_); }
  const float* w() const { return as_fp32(w_); }
  const float* b() const { return as_fp32(b_); }  // nullptr without bias
  float* y() const { return as_fp32(y_); }
  // The same buffers untyped, for every dtype: elements of the problem's dtype (float, or __half /
  // __nv_bfloat16 bit patterns), stored in its layout (problem/memory_layout.hpp).
  // Writable, since a backward pass writes x (grad_input) or w and b (grad_weight, grad_bias).
  void* x_data() const { return x_.data(); }
  void* w_data() const { return w_.data(); }
  void* b_data() const { return b_.data(); }  // nullptr without bias
  void* y_data() const { return y_.data(); }
  // The buffer of a forward operand, writable: a backward pass writes into x's (grad_input) or w's and
  // b's (grad_weight, grad_bias) and reads grad_output from y's (data::role_operand, computed_operands).
  void* data(Operand operand);
  int device() const { return device_; }
  // How long the blocking kernel waits for the host before it gives up (tests shorten it).
  void set_block_timeout_ns(std::uint64_t ns) { block_timeout_ns_ = ns; }
  void add_warning(std::string warning);  // once per text

 private:
  std::uint64_t input_checksum();
  void capture_graph();
  Sample take_sample(const TimingOptions& timing, bool blocking);

  ConvProblem problem_;
  int device_ = 0;  // made current first, so every member below is created on it
  // One tensor: its bytes and how they are laid out (runtime/tensor_storage.hpp).
  struct DeviceTensor {
    DeviceTensor(const ConvProblem& problem, Operand operand);
    void* data() const { return bytes.data(); }
    TensorStorage storage;  // before bytes, which are sized from it
    DeviceBuffer<std::byte> bytes;
  };
  float* as_fp32(const DeviceTensor& tensor) const;
  DeviceTensor& tensor(Operand operand);

  DeviceTensor x_, w_, b_, y_;
  CudaStream stream_;
  CudaEvent start_, stop_;
  std::unique_ptr<SmClockProbe> clock_probe_;
  std::unique_ptr<L2Flusher> flusher_;      // allocated at the first cold sample
  CudaStream capture_stream_;               // non-blocking: made at the first graph sample
  CudaGraphExec graph_;                     // captured at the first graph sample
  std::unique_ptr<StreamBlocker> blocker_;  // made at the first sample
  bool blocking_ = true;                    // false once enqueue() was seen to wait for the device
  std::uint64_t block_timeout_ns_;
  std::vector<std::string> warnings_;
  std::uint64_t checksum_after_fill_ = 0;
};

}  // namespace kbench::gpu
