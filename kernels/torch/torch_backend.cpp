#include "torch/torch_backend.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "torch/torch_flags.hpp"

namespace kbench::torch {

namespace {

class TorchBackend final : public Backend {
 public:
  explicit TorchBackend(std::shared_ptr<const EmbeddedTorch> torch) : torch_(std::move(torch)) {}

  std::string name() const override { return "torch"; }
  std::string description() const override {
    return "PyTorch's torch.nn.functional convolutions (backward passes: torch.ops.aten.convolution_backward) in "
           "an embedded Python, eager or torch.compile'd (variants eager, compile, compile-max-autotune; --python "
           "picks the interpreter)";
  }
  bool runs_on_cpu() const override { return !torch_->on_gpu(); }
  // Starting Python and importing torch takes seconds: only a run that names it pays for that.
  bool selected_by_default() const override { return false; }

  Support available() const override { return torch_->available(); }

  Support supports(const ConvProblem& problem, const BackendOptions& options) const override {
    const std::optional<TorchMode> mode = parse_torch_variant(options.variant);
    if (!mode)
      return Support::no(
          fmt::format("unknown torch variant '{}'; known: eager, compile, compile-max-autotune", options.variant));
    if (Support s = torch_expressible(problem); !s) return s;
    if (*mode != TorchMode::eager && torch_->started() && !torch_->facts().has_compile)
      return Support::no(fmt::format("torch {} has no torch.compile (it came with torch 2.0)", torch_->facts().version));
    return Support::yes();
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    return torch_->fits(problem, options);
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
    if (Support s = supports(problem, options); !s) throw std::invalid_argument("torch: " + s.reason);
    return torch_->prepare(problem, options, torch_settings(options));
  }

  std::vector<std::string> environment_notes() const override {
    if (!available()) return {};
    return {torch_->environment_note("torch")};
  }

 private:
  std::shared_ptr<const EmbeddedTorch> torch_;
};

}  // namespace

std::unique_ptr<Backend> make_torch_backend(std::shared_ptr<const EmbeddedTorch> torch) {
  return std::make_unique<TorchBackend>(std::move(torch));
}

}  // namespace kbench::torch
