#include "cuda/cuda_backend.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cuda/cuda_prepared_run.hpp"
#include "cuda/registry.hpp"
#include "cuda/device_support.hpp"
#include "cuda/selection.hpp"
#include "cuda/kernel_launch.hpp"
#include "runtime/device_info.hpp"
#include "runtime/gpu_prepared_run.hpp"

namespace kbench::gpu {

namespace {

// An envelope's reason without the "family: " it starts with, for a listing that names the family already.
std::string without_name(const std::string& reason, std::string_view name) {
  const std::string prefix = std::string(name) + ": ";
  return reason.starts_with(prefix) ? reason.substr(prefix.size()) : reason;
}

// Whether a family left out of a problem is listed as ruled out when no variant is forced: every
// family for a problem of fp16, bf16 or channels-last tensors (there the fp32 NCHW families' absence
// needs saying), but for an fp32 NCHW problem only the families that compute fp32 NCHW at all (the
// half-precision ones are no candidates for it, and its plan reads as it did before they existed).
// A forced variant is always ruled out with its reason. A family that does not compute the problem's
// pass at all (the forward families for backward_weights, the backward_weights ones for the others) is
// no candidate either.
bool listed_as_ruled_out(conv::Family f, const ConvProblem& problem) {
  const conv::FamilyDescriptor& d = conv::descriptor(f);
  if (!conv::computes_pass(d, problem)) return false;
  if (problem.dtype != DType::fp32 || problem.layout != Layout::nchw) return true;
  return (d.dtypes & conv::dtype_bit(DType::fp32)) != 0 && (d.layouts & conv::layout_bit(Layout::nchw)) != 0;
}

class CudaBackend final : public Backend {
 public:
  std::string name() const override { return "cuda"; }

  std::string description() const override { return conv::backend_description(); }

  Support available() const override {
    if (Support s = context_usable(); !s) return s;
    if (!availability_) availability_ = probe();
    return *availability_;
  }

  Support supports(const ConvProblem& problem, const BackendOptions& options) const override {
    return resolve(problem, options).support;
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    if (Support s = available(); !s) return s;
    const conv::Resolution resolved = resolve(problem, options);
    if (!resolved.support) return resolved.support;
    // A search builds one candidate's launch at a time: its peak is the largest candidate's.
    std::int64_t launch_bytes = 0;
    const conv::LaunchDevice device{device_info(options.device).sms, 0};  // split-K's workspace depends on it
    for (const conv::KernelChoice& c :
         searches(options) ? conv::search_candidates(problem, options.math) : std::vector{resolved.choice})
      launch_bytes = std::max(launch_bytes, conv::launch_device_bytes(c, problem, device));
    return fits_in_device_memory(GpuPreparedRun::device_bytes_needed(problem, options.device) + launch_bytes,
                                 options.device);
  }

  std::vector<std::string> variants(const ConvProblem& problem, const BackendOptions& options) const override {
    std::vector<std::string> names;
    for (const conv::KernelChoice& c : conv::applicable_variants(problem, options.math))
      if (choice_runs_on(c, options.device) && choice_differs_on(c, problem, options.device))
        names.push_back(conv::variant_name(c));
    return names;
  }

  // The forced variant, or the default and then the others `cuda:all` runs, each described for
  // `device` (its SMs size the persistent grids); those its architecture cannot run, and the families
  // whose envelopes leave the problem out, ruled out with why.
  BackendPlan plan(const ConvProblem& problem, const BackendOptions& options, const PlanDevice& device) const override {
    const conv::EnvelopeScope scope;  // the families ruled out below were asked for the variants already
    const conv::Resolution resolved = conv::resolve_choice(problem, options.math, options.variant);
    BackendPlan out{resolved.support, {}, {}};
    if (!out.support) return out;
    const std::vector<conv::KernelChoice> choices = options.variant.empty()
                                                        ? conv::applicable_variants(problem, options.math)
                                                        : std::vector{resolved.choice};
    for (const conv::KernelChoice& c : choices) {
      if (Support s = conv::choice_runs_on_capability(c, device.cc_major, device.cc_minor, device.name); !s) {
        out.ruled_out.emplace_back(conv::variant_name(c), s.reason);
        continue;
      }
      if (Support s = conv::split_variant_on_device(c, problem, device.sms); !s && options.variant.empty()) {
        out.ruled_out.emplace_back(conv::variant_name(c), s.reason);
        continue;
      }
      conv::KernelDescription d = conv::describe_kernel(c, problem, conv::LaunchDevice{device.sms, 0});
      out.variants.push_back({conv::variant_name(c), std::move(d.implementation), std::move(d.properties)});
    }
    if (options.variant.empty())
      for (const conv::Family f : conv::kAllFamilies)
        if (Support s = conv::family_envelope(f, problem, options.math); !s && listed_as_ruled_out(f, problem))
          out.ruled_out.emplace_back(std::string(conv::family_name(f)), without_name(s.reason, conv::family_name(f)));
    if (out.variants.empty()) out.support = Support::no(out.ruled_out.front().second);  // a forced variant ruled out
    return out;
  }

  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) override {
    // Resolved once: the launch builds this choice without asking its envelope again.
    const conv::Resolution resolved = resolve(problem, options);
    if (!resolved.support)
      throw std::invalid_argument(fmt::format("cuda backend cannot prepare this problem: {}", resolved.support.reason));
    return std::make_unique<CudaPreparedRun>(problem, options.device, resolved.choice, options.math,
                                             searches(options) ? AlgoSearch::exhaustive : AlgoSearch::heuristic);
  }

 private:
  // The choice for the result, and whether it runs: in its envelope (resolve_choice) and, for a forced
  // variant, on the device (a default family runs on every device this build targets).
  static conv::Resolution resolve(const ConvProblem& problem, const BackendOptions& options) {
    conv::Resolution resolved = conv::resolve_choice(problem, options.math, options.variant);
    if (resolved.support && !options.variant.empty()) resolved.support = choice_runs_on(resolved.choice, options.device);
    return resolved;
  }

  // `--algo exhaustive` times every variant, unless one is forced.
  static bool searches(const BackendOptions& options) {
    return options.algo_search == AlgoSearch::exhaustive && options.variant.empty();
  }

  static Support probe() {
    if (Support s = cuda_status(); !s) return s;
    std::string reason;
    if (!conv::kernel_image_loadable(&reason))
      return Support::no(fmt::format("this build's kernels (sm_90) cannot load on the device: {}", reason));
    return Support::yes();
  }

  mutable std::optional<Support> availability_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace kbench::gpu
