// Stands in for graph_frontend.cpp where cudnn-frontend's headers were not found at build time:
// the graph API is absent, and the backend asks graph_api_built() before it builds a graph.
#include <cudnn.h>

#include "cudnn/cudnn_check.hpp"
#include "cudnn/graph/graph_api.hpp"

namespace kbench::gpu {

namespace {

[[noreturn]] void absent() { throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, graph_api_description()); }

}  // namespace

bool graph_api_built() { return false; }

std::string graph_api_description() {
  return "not in this build: cudnn-frontend's headers were not found when it was configured, or "
         "KBENCH_ENABLE_CUDNN_FRONTEND was OFF (scripts/fetch-cudnn-frontend.sh fetches them into "
         "third_party/cudnn-frontend)";
}

struct CudnnGraph::State {};

CudnnGraph::CudnnGraph(cudnnHandle_t, const CudnnGraphAttributes&, GraphMathPolicy) { absent(); }
CudnnGraph::~CudnnGraph() = default;
void CudnnGraph::add_heuristic_configs() { absent(); }
void CudnnGraph::add_config(const EngineConfigName&) { absent(); }
const std::vector<GraphEngineConfig>& CudnnGraph::configs() const { absent(); }
std::optional<std::string> CudnnGraph::build(std::size_t, std::int64_t) { absent(); }
std::int64_t CudnnGraph::workspace_bytes(std::size_t) const { absent(); }
void CudnnGraph::execute(cudnnHandle_t, std::size_t, const std::vector<std::pair<std::int64_t, void*>>&, void*) const {
  absent();
}

}  // namespace kbench::gpu
