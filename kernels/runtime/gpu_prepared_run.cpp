#include "runtime/gpu_prepared_run.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device_kernels.hpp"
#include "runtime/l2_flusher.hpp"
#include "runtime/sm_clock_probe.hpp"
#include "runtime/stream_blocker.hpp"
#include "runtime/timing_sequence.hpp"

namespace kbench::gpu {

namespace {

// Used in the member-initialiser list: the device must be current before the first allocation.
int make_current(int device) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

}  // namespace

GpuPreparedRun::DeviceTensor::DeviceTensor(const ConvProblem& problem, Operand operand)
    : storage(tensor_storage(problem, operand)), bytes(storage_bytes(storage)) {}

float* GpuPreparedRun::as_fp32(const DeviceTensor& tensor) const {
  if (tensor.storage.dtype != DType::fp32)
    throw std::logic_error(fmt::format("GpuPreparedRun: fp32 view of a {} tensor; a kernel for {} reads x_data() etc.",
                                       to_string(tensor.storage.dtype), to_string(tensor.storage.dtype)));
  return static_cast<float*>(tensor.data());
}

GpuPreparedRun::GpuPreparedRun(const ConvProblem& problem, int device)
    : problem_(problem),
      device_(make_current(device)),
      x_(problem, Operand::input),
      w_(problem, Operand::weight),
      b_(problem, Operand::bias),
      y_(problem, Operand::output),
      stream_(make_stream()),
      start_(make_timing_event()),
      stop_(make_timing_event()),
      clock_probe_(std::make_unique<SmClockProbe>(device)),
      block_timeout_ns_(StreamBlocker::kDefaultTimeoutNs) {}

std::int64_t GpuPreparedRun::device_bytes_needed(const ConvProblem& problem, int device) {
  int l2_bytes = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  std::int64_t tensors = 0;
  for (const Operand operand : {Operand::input, Operand::weight, Operand::bias, Operand::output})
    tensors += storage_bytes(tensor_storage(problem, operand));
  return tensors + L2Flusher::flush_bytes(l2_bytes);
}

GpuPreparedRun::~GpuPreparedRun() {
  // Members are released on the device they were made on; errors cannot be acted upon here.
  (void)cudaSetDevice(device_);
  (void)cudaDeviceSynchronize();
  (void)cudaGetLastError();
}

GpuPreparedRun::DeviceTensor& GpuPreparedRun::tensor(Operand operand) {
  switch (operand) {
    case Operand::input: return x_;
    case Operand::weight: return w_;
    case Operand::bias: return b_;
    case Operand::output: break;
  }
  return y_;
}

void* GpuPreparedRun::data(Operand operand) { return tensor(operand).data(); }

void GpuPreparedRun::fill_inputs(std::uint64_t seed) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device_));
  const float bound = data::init_bound(problem_);
  // Only what the pass reads: its computed tensor is poisoned before every verified run.
  for (const data::TensorRole role : data::roles_read(problem_)) {
    DeviceTensor& t = tensor(data::role_operand(role));
    fill_seeded(t.data(), t.storage, seed, role, bound, stream());
  }
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  checksum_after_fill_ = input_checksum();
}

void GpuPreparedRun::poison_output() {
  KBENCH_CUDA_CHECK(cudaSetDevice(device_));
  for (const Operand operand : computed_operands(problem_)) {
    DeviceTensor& t = tensor(operand);
    fill_nan(t.data(), t.storage, stream());
  }
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

void GpuPreparedRun::run() {
  KBENCH_CUDA_CHECK(cudaSetDevice(device_));
  enqueue(stream());
  KBENCH_CUDA_CHECK(cudaDeviceSynchronize());
}

void GpuPreparedRun::add_warning(std::string warning) {
  if (std::find(warnings_.begin(), warnings_.end(), warning) == warnings_.end())
    warnings_.push_back(std::move(warning));
}

void GpuPreparedRun::capture_graph() {
  // One eager execution first: lazy module loading and library-internal first-call set-up
  // (cuDNN's runtime-compiled engines) must not happen inside the capture.
  enqueue(stream());
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));

  // Captured on a stream of its own that does not synchronise with the legacy default stream: on a
  // blocking stream, any legacy-stream use during the capture (inside a library) would be an
  // implicit synchronisation with the capturing stream and invalidate it. Thread-local mode: only
  // this thread's unsafe calls (a stray cudaMalloc) break the capture. The graph is launched on
  // stream() like any other execution.
  if (!capture_stream_) {
    cudaStream_t raw = nullptr;
    KBENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking));
    capture_stream_ = CudaStream(raw);
  }
  const cudaStream_t capture = capture_stream_.get();
  KBENCH_CUDA_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal));
  try {
    enqueue(capture);
  } catch (...) {
    cudaGraph_t partial = nullptr;
    (void)cudaStreamEndCapture(capture, &partial);  // leave the stream usable
    if (partial) (void)cudaGraphDestroy(partial);
    (void)cudaGetLastError();
    throw;
  }
  cudaGraph_t raw_graph = nullptr;
  KBENCH_CUDA_CHECK(cudaStreamEndCapture(capture, &raw_graph));
  const CudaGraph graph(raw_graph);
  cudaGraphExec_t exec = nullptr;
  KBENCH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  graph_ = CudaGraphExec(exec);
  // Upload now so the first replay does not pay for it.
  KBENCH_CUDA_CHECK(cudaGraphUpload(graph_.get(), stream()));
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

Sample GpuPreparedRun::timed_run(const TimingOptions& timing) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device_));
  if (timing.graph && !graph_) capture_graph();
  if (timing.cold && !flusher_) {
    flusher_ = std::make_unique<L2Flusher>(device_);
    if (flusher_->warning()) add_warning(*flusher_->warning());
  }
  if (blocking_ && !blocker_) blocker_ = std::make_unique<StreamBlocker>(block_timeout_ns_);
  Sample sample = take_sample(timing, blocking_);
  if (blocking_ && blocker_->timed_out()) {
    // enqueue() waited for the device, so the held stream held the host too until the kernel gave
    // up: that sample is void, and the rest are taken without holding the stream.
    blocking_ = false;
    add_warning(
        "the backend's enqueue waits for the device (a synchronising call), so its samples were taken without "
        "the blocking kernel: host enqueue time may be counted as device time");
    sample = take_sample(timing, false);
  }
  return sample;
}

Sample GpuPreparedRun::take_sample(const TimingOptions& timing, bool blocking) {
  // However the sample ends, a held stream is let go: a kernel left spinning would hold the device
  // for the whole timeout.
  struct ReleaseOnExit {
    StreamBlocker* blocker;
    ~ReleaseOnExit() {
      if (blocker) blocker->release();
    }
  } release_on_exit{blocking ? blocker_.get() : nullptr};

  for (const TimingStep step : timing_sequence(timing.cold, blocking)) {
    switch (step) {
      case TimingStep::flush_l2: flusher_->flush(stream()); break;
      case TimingStep::block_stream: blocker_->block(stream()); break;
      case TimingStep::probe_start: clock_probe_->start(stream()); break;
      // Both events go on the legacy default stream: it waits for all earlier work of every
      // blocking stream (the flush, the held stream) and is waited for by later work, so the
      // interval holds everything the backend enqueued, on whichever blocking stream.
      case TimingStep::record_start: KBENCH_CUDA_CHECK(cudaEventRecord(start_.get(), cudaStreamLegacy)); break;
      case TimingStep::execute:
        if (timing.graph)
          KBENCH_CUDA_CHECK(cudaGraphLaunch(graph_.get(), stream()));
        else
          enqueue(stream());
        break;
      case TimingStep::record_stop: KBENCH_CUDA_CHECK(cudaEventRecord(stop_.get(), cudaStreamLegacy)); break;
      case TimingStep::probe_stop: clock_probe_->stop(stream()); break;
      case TimingStep::release_stream: blocker_->release(); break;
      // Device-wide: also waits for (and surfaces faults from) work pushed to other streams.
      case TimingStep::synchronize_device: KBENCH_CUDA_CHECK(cudaDeviceSynchronize()); break;
    }
  }

  float elapsed_ms = 0;
  KBENCH_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start_.get(), stop_.get()));
  Sample sample;
  sample.seconds = static_cast<double>(elapsed_ms) * 1e-3;
  sample.throttled = clock_probe_->throttled();
  return sample;
}

std::vector<float> GpuPreparedRun::read_output(std::span<const std::int64_t> indices) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device_));
  const std::vector<Operand> parts = computed_operands(problem_);
  if (parts.size() == 1) return read_elements(tensor(parts[0]).data(), tensor(parts[0]).storage, indices, stream());
  // backward_weights with a bias: grad_weight's elements, then grad_bias's, as one flat tensor.
  DeviceTensor& dw = tensor(parts[0]);
  DeviceTensor& db = tensor(parts[1]);
  if (indices.empty()) {
    std::vector<float> all = read_elements(dw.data(), dw.storage, indices, stream());
    const std::vector<float> bias = read_elements(db.data(), db.storage, indices, stream());
    all.insert(all.end(), bias.begin(), bias.end());
    return all;
  }
  std::vector<std::int64_t> in_weight, in_bias;
  for (const std::int64_t i : indices) {
    if (i < dw.storage.count)
      in_weight.push_back(i);
    else
      in_bias.push_back(i - dw.storage.count);  // read_elements rejects what lies beyond grad_bias
  }
  std::vector<float> weight_values, bias_values;
  if (!in_weight.empty()) weight_values = read_elements(dw.data(), dw.storage, in_weight, stream());
  if (!in_bias.empty()) bias_values = read_elements(db.data(), db.storage, in_bias, stream());
  std::vector<float> out;
  out.reserve(indices.size());
  std::size_t next_weight = 0, next_bias = 0;
  for (const std::int64_t i : indices)
    out.push_back(i < dw.storage.count ? weight_values[next_weight++] : bias_values[next_bias++]);
  return out;
}

bool GpuPreparedRun::inputs_unchanged() {
  KBENCH_CUDA_CHECK(cudaSetDevice(device_));
  return input_checksum() == checksum_after_fill_;
}

std::uint64_t GpuPreparedRun::input_checksum() {
  // Chained rather than summed, so equal changes in two tensors cannot cancel. The operands the
  // pass reads: the computed tensor may hold anything between runs.
  std::uint64_t h = 0;
  for (const data::TensorRole role : data::roles_read(problem_)) {
    const DeviceTensor& t = tensor(data::role_operand(role));
    h = data::mix64(h) + checksum(t.data(), t.storage, stream());
  }
  return h;
}

}  // namespace kbench::gpu
