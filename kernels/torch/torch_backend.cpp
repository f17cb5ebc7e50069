#include "torch/torch_backend.hpp"

#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "problem/conv_pass.hpp"
#include "reference/host_memory.hpp"
#include "torch/interpreter.hpp"
#include "torch/torch_flags.hpp"
#include "torch/torch_prepared_run.hpp"
#include "torch/torch_session.hpp"

#if defined(KBENCH_HAVE_CUDA)
#include "runtime/device_info.hpp"
#include "runtime/gpu_prepared_run.hpp"
#include "torch/torch_gpu_run.hpp"
#endif

namespace kbench::torch {

namespace {

double gib(double bytes) { return bytes / double(std::int64_t{1} << 30); }

class TorchBackend final : public Backend {
 public:
  explicit TorchBackend(std::string python_flag) : python_flag_(std::move(python_flag)) {}

  std::string name() const override { return "torch"; }
  std::string description() const override {
    return "PyTorch's torch.nn.functional convolutions (backward passes: torch.ops.aten.convolution_backward) in "
           "an embedded Python, eager or torch.compile'd (variants eager, compile, compile-max-autotune; --python "
           "picks the interpreter)";
  }
  // On the CPU where torch cannot reach a GPU (no CUDA build, no device, a CPU-only torch), so the
  // runner times it like the reference.
  bool runs_on_cpu() const override { return !on_gpu(); }
  // Starting Python and importing torch takes seconds: only a run that names it pays for that.
  bool selected_by_default() const override { return false; }

  Support available() const override {
    if (!availability_) availability_ = start();
    return *availability_;
  }

  Support supports(const ConvProblem& problem, const BackendOptions& options) const override {
    const std::optional<TorchMode> mode = parse_torch_variant(options.variant);
    if (!mode)
      return Support::no(
          fmt::format("unknown torch variant '{}'; known: eager, compile, compile-max-autotune", options.variant));
    if (Support s = torch_expressible(problem); !s) return s;
    if (*mode != TorchMode::eager && session_ && !session_->facts().has_compile)
      return Support::no(
          fmt::format("torch {} has no torch.compile (it came with torch 2.0)", session_->facts().version));
    return Support::yes();
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    // kbench's four buffers, and torch's own output (the pass's computed tensor) beside them.
    const double elements = static_cast<double>(problem.input_elements() + problem.weight_elements() +
                                                problem.bias_elements() + problem.output_elements() +
                                                computed_elements(problem));
#if defined(KBENCH_HAVE_CUDA)
    if (on_gpu())
      return gpu::fits_in_device_memory(gpu::GpuPreparedRun::device_bytes_needed(problem, options.device) +
                                            computed_elements(problem) * std::int64_t{4},
                                        options.device);
#else
    (void)options;
#endif
    const double bytes = 4.0 * elements;
    const std::optional<std::int64_t> free = reference::available_host_memory();
    if (!free || bytes <= static_cast<double>(*free)) return Support::yes();
    return Support::no(
        fmt::format("needs {:.2f} GiB of host memory (kbench's tensors and torch's output), {:.2f} GiB "
                    "available",
                    gib(bytes), gib(static_cast<double>(*free))));
  }

  std::vector<std::string> variants(const ConvProblem&, const BackendOptions&) const override {
    return torch_variant_names();
  }

  // What runs is the call itself: known without starting Python (what torch then dispatches to is
  // torch's choice at run time, recorded in the result's properties).
  BackendPlan plan(const ConvProblem& problem, const BackendOptions& options, const PlanDevice&) const override {
    BackendPlan out{supports(problem, options), {}, {}};
    if (!out.support) return out;
    const TorchMode chosen = *parse_torch_variant(options.variant);
    const auto describe = [&](TorchMode mode) {
      const TorchSettings s = torch_settings(options);
      return VariantPlan{std::string(variant_name(mode)),
                         implementation_name(problem, mode),
                         {{"torch.backends.cudnn.allow_tf32", s.allow_tf32 ? "True" : "False"},
                          {"torch.backends.cudnn.benchmark", s.cudnn_benchmark ? "True" : "False"}}};
    };
    out.variants.push_back(describe(chosen));
    for (const std::string& name : torch_variant_names())
      if (const TorchMode mode = *parse_torch_variant(name); mode != chosen) out.variants.push_back(describe(mode));
    return out;
  }

  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) override {
    if (Support s = available(); !s) throw std::runtime_error("torch backend unavailable: " + s.reason);
    if (Support s = supports(problem, options); !s) throw std::invalid_argument("torch: " + s.reason);
#if defined(KBENCH_HAVE_CUDA)
    if (on_gpu()) return std::make_unique<TorchGpuRun>(*session_, problem, options);
#endif
    return std::make_unique<TorchCpuRun>(*session_, problem, options);
  }

  std::vector<std::string> environment_notes() const override {
    if (!available()) return {};
    const InterpreterInfo& python = session_->python().interpreter();
    return {fmt::format("torch backend: torch {} (cuDNN {}) in Python {} ({}, from {}), on {}",
                        session_->facts().version, session_->facts().cudnn_version, python.version, python.executable,
                        choice_.source, on_gpu() ? "the GPU" : "the CPU")};
  }

 private:
  // Finds the interpreter, starts it and imports torch: once, at the first question that needs it.
  Support start() const {
    choice_ = choose_interpreter(python_flag_, std::getenv("KBENCH_PYTHON"));
    InterpreterInfo info;
    if (Support s = probe_interpreter(choice_, info); !s) return s;
    try {
      session_ = &TorchSession::open(info);
    } catch (const std::exception& e) {
      return Support::no(
          fmt::format("torch cannot start in Python {} ({}): {}", info.version, info.executable, e.what()));
    }
    return Support::yes();
  }

  bool on_gpu() const {
#if defined(KBENCH_HAVE_CUDA)
    if (!available()) return false;
    if (!gpu_) gpu_ = session_->facts().cuda_available && bool(gpu::cuda_status());
    return *gpu_;
#else
    return false;
#endif
  }

  std::string python_flag_;
  mutable InterpreterChoice choice_;
  mutable std::optional<Support> availability_;
  mutable TorchSession* session_ = nullptr;  // the process's, once started
  mutable std::optional<bool> gpu_;
};

}  // namespace

std::unique_ptr<Backend> make_torch_backend(std::string python_flag) {
  return std::make_unique<TorchBackend>(std::move(python_flag));
}

}  // namespace kbench::torch
