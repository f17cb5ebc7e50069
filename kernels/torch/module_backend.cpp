#include "torch/module_backend.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "torch/torch_flags.hpp"

namespace kbench::torch {

namespace {

class ModuleBackend final : public Backend {
 public:
  explicit ModuleBackend(std::shared_ptr<const EmbeddedTorch> torch) : torch_(std::move(torch)) {}

  std::string name() const override { return "module"; }
  std::string description() const override {
    return "a KernelBench-style file's ModelNew (else Model), built from its get_init_inputs() with kbench's weight "
           "and bias as its parameters, in the embedded torch (--backends module:PATH.py; forward pass; the model "
           "cast to the workload's dtype, its input channels-last strided for nhwc)";
  }
  bool runs_on_cpu() const override { return !torch_->on_gpu(); }
  bool selected_by_default() const override { return false; }  // it needs a file

  Support available() const override { return torch_->available(); }

  // The file must be there before anything starts: a mistyped path is the command line's error.
  Support variant_usable(const std::string& variant) const override {
    std::error_code error;
    if (!std::filesystem::is_regular_file(variant, error))
      return Support::no(fmt::format("module:{}: {}", variant,
                                     std::filesystem::exists(variant, error) ? "not a regular file" : "no such file"));
    return Support::yes();
  }

  Support supports(const ConvProblem& problem, const BackendOptions& options) const override {
    if (options.variant.empty()) return Support::no("module needs a file: --backends module:PATH.py");
    if (Support s = variant_usable(options.variant); !s) return s;
    if (problem.pass != Pass::forward)
      return Support::no(fmt::format("a module's forward is what runs; its {} pass is torch's own "
                                     "(--backends torch runs aten.convolution_backward)",
                                     to_string(problem.pass)));
    return Support::yes();
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    return torch_->fits(problem, options);
  }

  // The file is the variant: `module:all` has nothing to expand to.
  std::vector<std::string> variants(const ConvProblem&, const BackendOptions& options) const override {
    if (options.variant.empty()) return {};
    return {options.variant};
  }

  // Which class runs, and which parameters take kbench's buffers, is known once Python has run the file.
  BackendPlan plan(const ConvProblem& problem, const BackendOptions& options, const PlanDevice&) const override {
    BackendPlan out{supports(problem, options), {}, {}};
    if (!out.support) return out;
    out.variants.push_back({options.variant,
                            fmt::format("ModelNew (else Model) from {}", options.variant),
                            {{"weights", "kbench's, as the parameter of the weight's shape"}}});
    return out;
  }

  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) override {
    if (Support s = supports(problem, options); !s) throw std::invalid_argument("module: " + s.reason);
    BackendOptions eager = options;  // the variant is the file: torch's own switches, eager
    eager.variant.clear();
    TorchSettings settings = torch_settings(eager);
    settings.module = options.variant;  // as typed: what the result names; Python shares kbench's directory
    return torch_->prepare(problem, options, settings);
  }

  std::vector<std::string> environment_notes() const override {
    if (!available()) return {};
    return {torch_->environment_note("module")};
  }

 private:
  std::shared_ptr<const EmbeddedTorch> torch_;
};

}  // namespace

std::unique_ptr<Backend> make_module_backend(std::shared_ptr<const EmbeddedTorch> torch) {
  return std::make_unique<ModuleBackend>(std::move(torch));
}

}  // namespace kbench::torch
