#pragma once
// cuDNN's graph API for one problem's graph (graph_attributes.hpp), behind an interface without
// cudnn-frontend's headers: they take about a minute to compile, so graph_frontend.cpp alone includes
// them, and graph_frontend_absent.cpp stands in where they were not found at build time.
#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cudnn/graph/graph_attributes.hpp"
#include "cudnn/graph/graph_selection.hpp"
#include "cudnn/graph/graph_variant.hpp"

namespace kbench::gpu {

// Whether this build has cuDNN's graph API.
bool graph_api_built();
// "cudnn-frontend 1.32.0", or why the graph API is not in this build.
std::string graph_api_description();

// A problem's graph, validated and lowered to cuDNN's operation graph on a handle, with the engine
// configs added to it. Every frontend error is thrown as CudnnError with the frontend's message.
class CudnnGraph {
 public:
  CudnnGraph(cudnnHandle_t handle, const CudnnGraphAttributes& attributes, GraphMathPolicy math);
  ~CudnnGraph();
  CudnnGraph(const CudnnGraph&) = delete;
  CudnnGraph& operator=(const CudnnGraph&) = delete;

  // cuDNN's heuristics' configs: mode A's, then FALLBACK's not already listed.
  void add_heuristic_configs();
  // One named config (a forced variant), listed under the name cuDNN reports for what it built.
  void add_config(const EngineConfigName& name);
  const std::vector<GraphEngineConfig>& configs() const;

  // Builds config i's execution plan: nothing when it built, else why not (the math policy's or the
  // frontend's reason). Configs needing more workspace than `workspace_limit` do not build.
  std::optional<std::string> build(std::size_t i, std::int64_t workspace_limit);
  // The workspace config i's built plan needs, in bytes.
  std::int64_t workspace_bytes(std::size_t i) const;
  // Runs config i's built plan on the handle's stream, each (uid, pointer) bound in the variant pack.
  void execute(cudnnHandle_t handle, std::size_t i, const std::vector<std::pair<std::int64_t, void*>>& tensors,
               void* workspace) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace kbench::gpu
