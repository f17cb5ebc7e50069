#include "torch/embedded_torch.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "problem/conv_pass.hpp"
#include "reference/host_memory.hpp"
#include "torch/torch_prepared_run.hpp"

#if defined(KBENCH_HAVE_CUDA)
#include "runtime/device_info.hpp"
#include "runtime/gpu_prepared_run.hpp"
#include "torch/torch_gpu_run.hpp"
#endif

namespace kbench::torch {

namespace {

double gib(double bytes) { return bytes / double(std::int64_t{1} << 30); }

}  // namespace

Support EmbeddedTorch::available() const {
  if (!availability_) availability_ = start();
#if defined(KBENCH_HAVE_CUDA)
  // After a kernel fault nothing runs on the device, torch's kernels no more than cuDNN's or ours.
  if (*availability_ && gpu_.value_or(false))
    if (Support s = gpu::context_usable(); !s) return s;
#endif
  return *availability_;
}

Support EmbeddedTorch::start() const {
  choice_ = choose_interpreter(python_flag_, std::getenv("KBENCH_PYTHON"));
  InterpreterInfo info;
  if (Support s = probe_interpreter(choice_, info); !s) return s;
  try {
    session_ = &TorchSession::open(info);
  } catch (const std::exception& e) {
    return Support::no(fmt::format("torch cannot start in Python {} ({}): {}", info.version, info.executable, e.what()));
  }
  return Support::yes();
}

bool EmbeddedTorch::on_gpu() const {
#if defined(KBENCH_HAVE_CUDA)
  if (!available()) return false;
  if (!gpu_) gpu_ = session_->facts().cuda_available && bool(gpu::cuda_status());
  return *gpu_;
#else
  return false;
#endif
}

Support EmbeddedTorch::fits(const ConvProblem& problem, const BackendOptions& options) const {
#if defined(KBENCH_HAVE_CUDA)
  if (on_gpu())
    return gpu::fits_in_device_memory(gpu::GpuPreparedRun::device_bytes_needed(problem, options.device) +
                                          computed_elements(problem) * bytes_per_element(problem.dtype),
                                      options.device);
#else
  (void)options;
#endif
  const double elements = static_cast<double>(problem.input_elements() + problem.weight_elements() +
                                              problem.bias_elements() + problem.output_elements() +
                                              computed_elements(problem));
  const double bytes = static_cast<double>(bytes_per_element(problem.dtype)) * elements;
  const std::optional<std::int64_t> free = reference::available_host_memory();
  if (!free || bytes <= static_cast<double>(*free)) return Support::yes();
  return Support::no(fmt::format(
      "needs {:.2f} GiB of host memory (kbench's tensors and torch's output), {:.2f} GiB available", gib(bytes),
      gib(static_cast<double>(*free))));
}

std::unique_ptr<PreparedRun> EmbeddedTorch::prepare(const ConvProblem& problem, const BackendOptions& options,
                                                    const TorchSettings& settings) const {
  if (Support s = available(); !s) throw std::runtime_error("torch unavailable: " + s.reason);
#if defined(KBENCH_HAVE_CUDA)
  if (on_gpu()) return std::make_unique<TorchGpuRun>(*session_, problem, options.device, settings);
#else
  (void)options;
#endif
  return std::make_unique<TorchCpuRun>(*session_, problem, settings);
}

std::string EmbeddedTorch::environment_note(std::string_view backend) const {
  const InterpreterInfo& python = session_->python().interpreter();
  return fmt::format("{} backend: torch {} (cuDNN {}) in Python {} ({}, from {}), on {}", backend,
                     session_->facts().version, session_->facts().cudnn_version, python.version, python.executable,
                     choice_.source, on_gpu() ? "the GPU" : "the CPU");
}

}  // namespace kbench::torch
