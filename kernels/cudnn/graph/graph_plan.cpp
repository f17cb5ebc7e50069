#include "cudnn/graph/graph_plan.hpp"

#include <fmt/format.h>

#include "cudnn/cudnn_check.hpp"
#include "cudnn/cudnn_shape.hpp"
#include "cudnn/cudnn_types.hpp"

namespace kbench::gpu {

namespace {

std::string notes_text(const std::vector<std::string>& notes) {
  std::string text;
  for (const std::string& note : notes) text += (text.empty() ? "" : ",") + note;
  return text.empty() ? "none" : text;
}

// The variant options name: nothing for "graph" (the heuristics'), the config for engine/...
std::optional<EngineConfigName> forced_config(const BackendOptions& options) {
  const ParsedGraphVariant parsed = parse_graph_variant(options.variant);
  if (!parsed.variant) throw CudnnError(CUDNN_STATUS_BAD_PARAM, parsed.error);
  return parsed.variant->config;
}

}  // namespace

std::unique_ptr<CudnnGraph> make_graph(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options,
                                       const std::optional<EngineConfigName>& forced) {
  auto graph = std::make_unique<CudnnGraph>(handle, cudnn_graph_attributes(cudnn_shape(problem)),
                                            graph_math_policy(options.math, problem.dtype));
  if (forced)
    graph->add_config(*forced);
  else
    graph->add_heuristic_configs();
  return graph;
}

GraphPick first_usable_config(CudnnGraph& graph, std::size_t from, std::int64_t workspace_limit) {
  GraphPick pick;
  for (std::size_t i = from; i < graph.configs().size(); ++i) {
    const GraphConfigVerdict verdict = judge_graph_config(
        graph.configs()[i], [&] { return graph.build(i, workspace_limit); }, [&] { return graph.workspace_bytes(i); },
        workspace_limit);
    if (verdict.workspace_bytes) {
      pick.config = i;
      pick.workspace_bytes = *verdict.workspace_bytes;
      return pick;
    }
    pick.ruled_out.push_back(verdict.reason);
  }
  return pick;
}

std::string no_usable_config(const GraphPick& pick) {
  std::string reason = "no engine config of cuDNN's graph API builds for the problem";
  if (pick.ruled_out.empty()) return reason + " (cuDNN's heuristics offer none)";
  for (std::size_t i = 0; i < pick.ruled_out.size(); ++i) reason += (i ? "; " : ": ") + pick.ruled_out[i];
  return reason;
}

Support graph_variant_support(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options) {
  try {
    const auto graph = make_graph(handle, problem, options, forced_config(options));
    const GraphPick pick = first_usable_config(*graph, 0, options.workspace_limit_bytes);
    return pick.config ? Support::yes() : Support::no(no_usable_config(pick));
  } catch (const CudnnError& e) {
    return Support::no(e.what());
  }
}

std::int64_t graph_variant_workspace(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options) {
  try {
    const auto graph = make_graph(handle, problem, options, forced_config(options));
    return first_usable_config(*graph, 0, options.workspace_limit_bytes).workspace_bytes;
  } catch (const CudnnError&) {
    return 0;  // supports() says why it cannot run; there is nothing to fit
  }
}

std::vector<std::string> graph_variant_names(cudnnHandle_t handle, const ConvProblem& problem,
                                             const BackendOptions& options) {
  std::vector<std::string> names = {"graph"};
  if (!handle) return names;
  try {
    const auto graph = make_graph(handle, problem, options, std::nullopt);
    for (const GraphEngineConfig& config : graph->configs())
      if (config.excluded.empty()) names.push_back(engine_config_name(config.name));
  } catch (const CudnnError&) {
    // The graph cannot be expressed or has no heuristics' answer: "graph" alone, unsupported with the reason.
  }
  return names;
}

void plan_graph(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options, BackendPlan& plan) {
  const CudnnGraphAttributes attributes = cudnn_graph_attributes(cudnn_shape(problem));
  const bool forced = !options.variant.empty();
  std::unique_ptr<CudnnGraph> graph;
  try {
    graph = make_graph(handle, problem, options, forced ? forced_config(options) : std::nullopt);
  } catch (const CudnnError& e) {
    plan.ruled_out.emplace_back(forced ? options.variant : "graph", e.what());
    return;
  }
  const GraphPick pick = first_usable_config(*graph, 0, options.workspace_limit_bytes);
  const auto entry = [&](const std::string& variant, std::size_t i, std::int64_t workspace, const char* how) {
    const GraphEngineConfig& config = graph->configs()[i];
    return VariantPlan{variant, "cudnn:" + engine_config_name(config.name),
                       graph_config_properties(attributes, config, workspace, how)};
  };
  if (!pick.config) {
    plan.ruled_out.emplace_back(forced ? options.variant : "graph", no_usable_config(pick));
  } else {
    plan.variants.push_back(entry(forced ? options.variant : "graph", *pick.config, pick.workspace_bytes,
                                  forced ? "forced" : "heuristic"));
  }
  if (forced) return;
  // Every config `cudnn:all` would force, each as its own variant, in cuDNN's order.
  for (std::size_t i = 0; i < graph->configs().size(); ++i) {
    const GraphEngineConfig& config = graph->configs()[i];
    if (!config.excluded.empty()) continue;
    const std::string name = engine_config_name(config.name);
    const GraphConfigVerdict verdict = judge_graph_config(
        config, [&] { return graph->build(i, options.workspace_limit_bytes); },
        [&] { return graph->workspace_bytes(i); }, options.workspace_limit_bytes);
    if (verdict.workspace_bytes)
      plan.variants.push_back(entry(name, i, *verdict.workspace_bytes, "forced"));
    else
      plan.ruled_out.emplace_back(name, verdict.reason);
  }
}

std::vector<std::pair<std::string, std::string>> graph_config_properties(const CudnnGraphAttributes& graph,
                                                                         const GraphEngineConfig& config,
                                                                         std::int64_t workspace_bytes,
                                                                         const std::string& how) {
  std::vector<std::pair<std::string, std::string>> props = {
      {"cudnn_api", "graph"},
      {"graph_operation", graph_node_name(graph.node) + (graph.biased ? " + pointwise ADD (bias)" : "")},
      {"engine_config", engine_config_name(config.name)},
      {"engine", std::to_string(config.name.engine)},
      {"knobs", config.name.knobs.empty() ? "none" : knob_choices_text(config.name)},
      {"frontend_plan_name", config.frontend_tag},
      {"ranked_by", config.ranked_by},
      {"numerical_notes", notes_text(config.numerical_notes)},
      {"data_type", data_type_name(graph.io_type)},
      {"compute_type", data_type_name(graph.compute_type)},
      {"layout", graph.channels_last ? "nhwc (channels-last strides, KRSC filter strides)" : "nchw (packed strides)"},
      {"workspace_bytes", std::to_string(workspace_bytes)},
      {"algo_search", how},
      {"cudnn_version", std::to_string(cudnnGetVersion())},
      {"cudnn_frontend", graph_api_description()},
  };
  if (graph.biased) props.emplace_back("bias", "fused pointwise add in the graph (one rounding of conv + bias)");
  if (graph.grad_bias_after) props.emplace_back("grad_bias", "separate cudnnConvolutionBackwardBias, timed");
  return props;
}

}  // namespace kbench::gpu
