#include "cuda/cuda_backend.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cuda/cuda_prepared_run.hpp"
#include "cuda/device_requirements.hpp"
#include "cuda/device_support.hpp"
#include "cuda/kernel_description.hpp"
#include "cuda/kernel_launch.hpp"
#include "cuda/kernel_selection.hpp"
#include "cuda/variant_names.hpp"
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
    if (Support s = envelope_support(problem, options); !s || options.variant.empty()) return s;
    return choice_runs_on(*conv::parse_variant(options.variant), options.device);
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    if (Support s = available(); !s) return s;
    if (Support s = supports(problem, options); !s) return s;
    // A search builds one candidate's launch at a time: its peak is the largest candidate's.
    std::int64_t launch_bytes = 0;
    const conv::LaunchDevice device{device_info(options.device).sms, 0};  // split-K's workspace depends on it
    for (const conv::KernelChoice& c :
         searches(options) ? conv::search_candidates(problem, options.math) : std::vector{choose(problem, options)})
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
    BackendPlan out{envelope_support(problem, options), {}, {}};
    if (!out.support) return out;
    const std::vector<conv::KernelChoice> choices = options.variant.empty()
                                                        ? conv::applicable_variants(problem, options.math)
                                                        : std::vector{choose(problem, options)};
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
    if (Support s = supports(problem, options); !s)
      throw std::invalid_argument(fmt::format("cuda backend cannot prepare this problem: {}", s.reason));
    return std::make_unique<CudaPreparedRun>(problem, options.device, choose(problem, options), options.math,
                                             searches(options) ? AlgoSearch::exhaustive : AlgoSearch::heuristic);
  }

 private:
  // Whether the problem, and the forced variant if any, lie in the backend's envelopes, whatever the device.
  static Support envelope_support(const ConvProblem& problem, const BackendOptions& options) {
    if (Support s = conv::problem_supported(problem); !s) return s;
    if (options.variant.empty()) return Support::yes();  // direct at least
    const conv::VariantParse parsed = conv::parse_variant_with_reason(options.variant);
    if (!parsed.choice)
      return Support::no(fmt::format("unknown cuda kernel variant '{}': {}", options.variant, parsed.error));
    return conv::choice_envelope(*parsed.choice, problem, options.math);
  }

  // `--algo exhaustive` times every variant, unless one is forced.
  static bool searches(const BackendOptions& options) {
    return options.algo_search == AlgoSearch::exhaustive && options.variant.empty();
  }

  // The forced variant, or the default family for the math mode. Call only after supports() said yes.
  static conv::KernelChoice choose(const ConvProblem& problem, const BackendOptions& options) {
    if (!options.variant.empty()) return *conv::parse_variant(options.variant);
    return conv::KernelChoice{conv::default_family(problem, options.math)};
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
