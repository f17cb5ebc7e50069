#pragma once
// Choosing and running cuDNN's algorithm for one pass of a convolution, with the call the pass
// makes (cudnn_pass.hpp: forward, backward data or backward filter; each has its own algorithm
// enum, heuristic, Find and workspace query). Three ways to choose, after BackendOptions:
//   heuristic  - cudnnGet*Algorithm_v7: the usable results in cuDNN's order;
//   exhaustive - cudnnFind*AlgorithmEx: cuDNN times every algorithm on our buffers, fastest first;
//   forced     - options.variant names the algorithm of that call ("IMPLICIT_PRECOMP_GEMM", "ALGO_1", ...).
// Every entry cuDNN's answers rule out is kept with the reason; a status other than success is
// an answer about that algorithm, never an error of the whole selection (PyTorch reads them so).
#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "cudnn/cudnn_descriptors.hpp"
#include "cudnn/cudnn_types.hpp"

namespace kbench::gpu {

struct AlgoChoice {
  int algo = 0;  // cudnnConvolution{Fwd,BwdData,BwdFilter}Algo_t, per shape().call.api
  cudnnMathType_t math = CUDNN_FMA_MATH;  // the math type the algorithm runs under
  std::size_t workspace_bytes = 0;
  std::string how;       // "heuristic", "exhaustive", "forced"
  float search_ms = -1;  // exhaustive: cuDNN's own time for the chosen algorithm
};

// A choice, the usable entries after it (what runs if the choice fails to execute), or why there
// is none (cuDNN's answers, or the workspace limit).
struct Selection {
  std::optional<AlgoChoice> choice;
  std::vector<AlgoChoice> alternatives;
  std::string reason;
};

// Every algorithm cuDNN has for the call, by number (its enum's ..._ALGO_COUNT of them).
std::vector<int> all_algorithms(CudnnApi api);

// --- Workspace sizes -----------------------------------------------------------------------------
// Compared as size_t against the limit: a size of 2^63 or more must not turn negative and pass.
// Beyond kAbsurdWorkspaceBytes (1 PiB, far above any device's memory) an answer is a bad one.
constexpr std::size_t kAbsurdWorkspaceBytes = std::size_t{1} << 50;
enum class WorkspaceVerdict { fits, over_limit, absurd };
WorkspaceVerdict judge_workspace(std::size_t bytes, std::int64_t limit);
// Why `name` is ruled out by its workspace ("needs 9.7 GB of workspace, over the limit of 1.1 GB").
std::string workspace_rejection(const std::string& name, std::size_t bytes, std::int64_t limit);

// cuDNN's answer to "what workspace does this algorithm need under this math type".
struct WorkspaceQuery {
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  std::size_t bytes = 0;
};
using WorkspaceQueryFn = std::function<WorkspaceQuery(int algo, cudnnMathType_t math)>;
// The query for `descs` on `handle` (the descriptors' math type is restored afterwards).
WorkspaceQueryFn workspace_query(cudnnHandle_t handle, ConvDescriptors& descs);
// Why `name` is ruled out by a query that did not succeed.
std::string query_rejection(const std::string& name, cudnnStatus_t status);

// --- Selection from answers (pure: the answers are given, so the host tests can fake them) -------
// One entry of cuDNN's ranked list (heuristic or Find), as both perf structs carry it.
struct RankedAlgo {
  int algo = 0;
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  float time_ms = -1;
  std::size_t memory = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
};

// The usable entries of a ranked list, in its order: succeeded, within the workspace limit, never
// CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION (inputs converted to a narrower type: the graph path's
// DOWN_CONVERT_INPUTS, ruled out there alike), and under RankedMath::fma_only not an explicit tensor-op entry. Under entry_own (tf32, half data) an entry runs
// under its own math type, as PyTorch sets it, so what runs is what cuDNN ranked; the workspace is
// asked again under the math type that will run. Entries ruled out are listed in the reason when none
// is usable.
Selection select_ranked(const std::vector<RankedAlgo>& ranked, const WorkspaceQueryFn& query, CudnnApi api,
                        std::int64_t limit, RankedMath math, cudnnMathType_t initial, const char* how);
// The named algorithm under the descriptors' math type, if cuDNN's query succeeds and fits the limit.
Selection select_forced(int algo, const WorkspaceQueryFn& query, CudnnApi api, std::int64_t limit,
                        cudnnMathType_t math);
// The largest workspace among `algos` whose query succeeds within `limit` (0 if none).
std::size_t largest_usable_workspace(const std::vector<int>& algos, const WorkspaceQueryFn& query, cudnnMathType_t math,
                                     std::int64_t limit);

// --- On a handle ---------------------------------------------------------------------------------
// Heuristic or forced selection; needs no device buffers. The descriptors keep their math type.
Selection select_without_running(cudnnHandle_t handle, ConvDescriptors& descs, const BackendOptions& options);

// What a result records of a choice: the call, algorithm, data and compute types, layout, math type,
// workspace, how it was chosen.
std::vector<std::pair<std::string, std::string>> choice_properties(const ConvDescriptors& descs,
                                                                   const AlgoChoice& choice);

// The workspace an exhaustive search is given: the largest any algorithm cuDNN supports here
// needs, among those within `limit`.
std::size_t exhaustive_search_workspace(cudnnHandle_t handle, ConvDescriptors& descs, std::int64_t limit);

// The buffers behind the three descriptors (cudnn_pass.hpp's buffer_of): for backward data
// forward_output holds dy and forward_input receives dx; for backward filter filter receives dw.
// Untyped: elements of the descriptors' data type, in their layout. Not const: which one the call
// writes depends on the call.
struct ConvPointers {
  void* forward_input = nullptr;
  void* filter = nullptr;
  void* forward_output = nullptr;
};

// Exhaustive selection: runs every algorithm on the buffers (the call's output is overwritten). `math` is the run's
// mode; with the descriptors' dtype it decides how the entries' math types are used (ranked_math).
Selection select_exhaustive(cudnnHandle_t handle, ConvDescriptors& descs, const ConvPointers& tensors, void* workspace,
                            std::size_t workspace_bytes, std::int64_t limit, MathMode math);

// The call on the buffers: y = conv(x, w), dx = backward_data(dy, w) or dw = backward_filter(x, dy),
// with beta = 0 so the previous contents of what it writes (NaN poison) are never read. `descs` must carry `choice.math`.
void execute(cudnnHandle_t handle, const ConvDescriptors& descs, const AlgoChoice& choice, const ConvPointers& tensors,
             void* workspace);

}  // namespace kbench::gpu
