#pragma once
// The cuDNN backend's questions to the graph API, asked on a handle without running anything: whether
// a graph variant runs a problem (supports), its workspace (fits), the engine configs `cudnn:all`
// lists, `kbench plan`'s entries, and what a result records of a config.
#include <cudnn.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "cudnn/graph/graph_api.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu {

// The problem's graph with its configs: the one `forced` names, else the heuristics'. Throws CudnnError.
std::unique_ptr<CudnnGraph> make_graph(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options,
                                       const std::optional<EngineConfigName>& forced);

// The first config from `from` on that builds within the limit, with its workspace; else why none does.
struct GraphPick {
  std::optional<std::size_t> config;
  std::int64_t workspace_bytes = 0;
  std::vector<std::string> ruled_out;  // the configs passed over, with why
};
GraphPick first_usable_config(CudnnGraph& graph, std::size_t from, std::int64_t workspace_limit);
std::string no_usable_config(const GraphPick& pick);  // "no engine config of cuDNN's graph builds: ..."

// supports() and fits() for a graph variant (options.variant is one; the caller checked the grammar).
Support graph_variant_support(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options);
std::int64_t graph_variant_workspace(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options);

// "graph" and, given a handle, every config the heuristics offer that the math policy keeps.
std::vector<std::string> graph_variant_names(cudnnHandle_t handle, const ConvProblem& problem,
                                             const BackendOptions& options);

// `kbench plan`'s entries for the graph API, appended to `plan`: for options.variant naming a graph
// variant only that one; else "graph" and every config of graph_variant_names, each usable or ruled out.
void plan_graph(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options, BackendPlan& plan);

// What a result records of a config (after the legacy path's choice_properties): the API, engine,
// knobs, cudnn-frontend's name, which heuristic ranked it, its numerical notes, types, layout,
// workspace and how it was chosen.
std::vector<std::pair<std::string, std::string>> graph_config_properties(const CudnnGraphAttributes& graph,
                                                                         const GraphEngineConfig& config,
                                                                         std::int64_t workspace_bytes,
                                                                         const std::string& how);

}  // namespace kbench::gpu
