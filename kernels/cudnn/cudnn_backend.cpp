#include "cudnn/cudnn_backend.hpp"

#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_descriptors.hpp"
#include "cudnn/cudnn_plan.hpp"
#include "cudnn/cudnn_prepared_run.hpp"
#include "cudnn/cudnn_shape.hpp"
#include "cudnn/cudnn_types.hpp"
#include "cudnn/graph/graph_plan.hpp"
#include "runtime/device_info.hpp"
#include "runtime/gpu_prepared_run.hpp"
#include "runtime/tf32_override.hpp"

namespace kbench::gpu {

namespace {

// Whether a graph variant can name anything in this build: its grammar, and the graph API built in.
Support graph_variant_usable(const std::string& variant) {
  const ParsedGraphVariant parsed = parse_graph_variant(variant);
  if (!parsed.variant) return Support::no(parsed.error);
  if (!graph_api_built()) return Support::no(fmt::format("cudnn:{} needs cuDNN's graph API, which is {}", variant,
                                                         graph_api_description()));
  return Support::yes();
}

class CudnnBackend final : public Backend {
 public:
  std::string name() const override { return "cudnn"; }

  std::string description() const override {
    const std::size_t v = cudnnGetVersion();
    return fmt::format(
        "NVIDIA cuDNN {}.{}.{} (legacy API): every pass of convolutions and transposed convolutions through "
        "cudnnConvolutionForward, BackwardData and BackwardFilter (+ BackwardBias); graph API (cudnn:graph, "
        "cudnn:engine/...): {}",
        v / 10000, v / 100 % 100, v % 100, graph_api_description());
  }

  Support available() const override {
    if (Support s = context_usable(); !s) return s;
    if (!availability_) availability_ = probe_availability();
    return *availability_;
  }

  Support supports(const ConvProblem& problem, const BackendOptions& options) const override {
    if (Support s = cudnn_expressible(problem); !s) return s;
    if (is_graph_variant(options.variant)) {
      if (Support s = graph_variant_usable(options.variant); !s) return s;
      // With a device, cuDNN builds the config's plan: one that does not build is unsupported, with why.
      if (!available()) return Support::yes();
      return graph_variant_support(handle(options.device)->get(), problem, options);
    }
    const CudnnApi api = cudnn_call(problem).api;
    if (!options.variant.empty() && !parse_algorithm(api, options.variant))
      return Support::no(fmt::format("unknown cuDNN {} algorithm '{}' (the {} pass runs {})", api_noun(api),
                                     options.variant, to_string(problem.pass), api_function(api)));
    // With a device, ask cuDNN itself whether the requested (or any) algorithm can run here.
    // An exhaustive search is decided in prepare(), by running the algorithms.
    const bool searches = options.algo_search == AlgoSearch::exhaustive && options.variant.empty();
    if (!available() || searches) return Support::yes();
    ConvDescriptors descs(cudnn_shape(problem), initial_math(options.math, problem.dtype));
    const Selection selection = select_without_running(handle(options.device)->get(), descs, options);
    return selection.choice ? Support::yes() : Support::no(selection.reason);
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    if (Support s = available(); !s) return s;
    if (Support s = cudnn_expressible(problem); !s) return s;
    ConvDescriptors descs(cudnn_shape(problem), initial_math(options.math, problem.dtype));
    const cudnnHandle_t h = handle(options.device)->get();
    std::int64_t workspace = 0;
    if (is_graph_variant(options.variant)) {
      workspace = graph_variant_workspace(h, problem, options);
      return fits_in_device_memory(GpuPreparedRun::device_bytes_needed(problem, options.device) + workspace,
                                   options.device);
    }
    // The exhaustive search over both APIs runs one candidate at a time, each within the limit; a
    // graph config whose workspace does not fit the device fails its allocation and is passed over.
    // Both sizes were judged against the (int64) limit as size_t already, so they convert exactly.
    if (options.algo_search == AlgoSearch::exhaustive && options.variant.empty()) {
      workspace = static_cast<std::int64_t>(exhaustive_search_workspace(h, descs, options.workspace_limit_bytes));
    } else if (const Selection selection = select_without_running(h, descs, options); selection.choice) {
      workspace = static_cast<std::int64_t>(selection.choice->workspace_bytes);
    }
    return fits_in_device_memory(GpuPreparedRun::device_bytes_needed(problem, options.device) + workspace,
                                 options.device);
  }

  Support variant_usable(const std::string& variant) const override {
    return is_graph_variant(variant) ? graph_variant_usable(variant) : Support::yes();
  }

  // The legacy algorithms of the pass's call; with the graph API "graph" and, with a device, every
  // engine config cuDNN's heuristics offer under the math mode.
  std::vector<std::string> variants(const ConvProblem& problem, const BackendOptions& options) const override {
    std::vector<std::string> names = algorithm_names(cudnn_call(problem).api);
    if (!graph_api_built()) return names;
    const bool asks_device = available() && cudnn_expressible(problem);
    const std::vector<std::string> graph =
        graph_variant_names(asks_device ? handle(options.device)->get() : nullptr, problem, options);
    names.insert(names.end(), graph.begin(), graph.end());
    return names;
  }

  // Asked of the device present (its heuristics need a handle), whatever device the plan names.
  BackendPlan plan(const ConvProblem& problem, const BackendOptions& options, const PlanDevice&) const override {
    if (Support s = available(); !s)
      return {Support::no(fmt::format("cuDNN chooses on its device, and none is usable here: {}", s.reason)), {}, {}};
    if (Support s = cudnn_expressible(problem); !s) return {s, {}, {}};
    const cudnnHandle_t h = handle(options.device)->get();
    if (is_graph_variant(options.variant)) {
      if (Support s = graph_variant_usable(options.variant); !s) return {s, {}, {}};
      BackendPlan forced{Support::yes(), {}, {}};
      plan_graph(h, problem, options, forced);
      if (forced.variants.empty()) forced.support = Support::no(forced.ruled_out.front().second);
      return forced;
    }
    BackendPlan out = plan_cudnn(h, problem, options);
    if (out.support && options.variant.empty() && graph_api_built()) plan_graph(h, problem, options, out);
    return out;
  }

  std::vector<std::string> environment_notes() const override {
    std::vector<std::string> notes;
    if (auto older = loaded_cudnn_version_warning()) notes.push_back(std::move(*older));
    const auto value = nvidia_tf32_override();
    if (!value) return notes;
    if (tf32_disabled_by_environment())
      notes.push_back(
          fmt::format("NVIDIA_TF32_OVERRIDE={} is set: cuDNN runs FP32 FMA kernels even where --math tf32 allows "
                      "TF32, so its tf32 results are fp32 (kbench's own kernels are unaffected)",
                      *value));
    else
      notes.push_back(fmt::format("NVIDIA_TF32_OVERRIDE={} is set (only 0 changes what cuDNN runs)", *value));
    return notes;
  }

  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) override {
    // The runner asks supports() first; this keeps a direct caller from a confusing descriptor error.
    if (Support s = cudnn_expressible(problem); !s) throw std::invalid_argument("cudnn: " + s.reason);
    return std::make_unique<CudnnPreparedRun>(problem, options, handle(options.device));
  }

 private:
  Support probe_availability() const {
    if (Support s = cuda_status(); !s) return s;
    try {
      (void)handle(0);
      return Support::yes();
    } catch (const std::exception& e) {
      return Support::no(fmt::format("cuDNN cannot start: {}", e.what()));
    }
  }

  std::shared_ptr<CudnnHandle> handle(int device) const {
    auto& slot = handles_[device];
    if (!slot) slot = std::make_shared<CudnnHandle>(device);
    return slot;
  }

  // Created on first use and kept: answering supports()/fits() needs a handle, and cudnnCreate
  // is far too slow to repeat per problem.
  mutable std::optional<Support> availability_;
  mutable std::map<int, std::shared_ptr<CudnnHandle>> handles_;
};

}  // namespace

std::unique_ptr<Backend> make_cudnn_backend() { return std::make_unique<CudnnBackend>(); }

std::string cudnn_graph_api_status() { return graph_api_description(); }

}  // namespace kbench::gpu
