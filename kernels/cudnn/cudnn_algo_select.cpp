#include "cudnn/cudnn_algo_select.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

// The fields the forward and backward-data perf structs share.
struct AlgoPerf {
  int algo = 0;
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  float time_ms = -1;
  std::size_t memory = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
};

template <class Perf>
std::vector<AlgoPerf> to_common(const std::vector<Perf>& perfs, int returned) {
  std::vector<AlgoPerf> out;
  for (int i = 0; i < returned && i < static_cast<int>(perfs.size()); ++i) {
    const Perf& p = perfs[static_cast<std::size_t>(i)];
    out.push_back({static_cast<int>(p.algo), p.status, p.time, p.memory, p.mathType});
  }
  return out;
}

bool is_not_supported(cudnnStatus_t status) { return CUDNN_STATUS_CATEGORY(status) == CUDNN_STATUS_NOT_SUPPORTED; }

struct WorkspaceQuery {
  cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
  std::size_t bytes = 0;
};

// "Not supported" is an answer; any other failure is an error and throws.
WorkspaceQuery query_workspace(cudnnHandle_t handle, const ConvDescriptors& d, int algo) {
  WorkspaceQuery q;
  if (d.shape().backward_data) {
    q.status = cudnnGetConvolutionBackwardDataWorkspaceSize(handle, d.filter(), d.forward_output(), d.conv(),
                                                            d.forward_input(),
                                                            static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), &q.bytes);
  } else {
    q.status = cudnnGetConvolutionForwardWorkspaceSize(handle, d.forward_input(), d.filter(), d.conv(),
                                                       d.forward_output(), static_cast<cudnnConvolutionFwdAlgo_t>(algo),
                                                       &q.bytes);
  }
  if (!is_not_supported(q.status)) KBENCH_CUDNN_CHECK(q.status);
  return q;
}

std::vector<AlgoPerf> heuristics(cudnnHandle_t handle, const ConvDescriptors& d) {
  int max_count = 0;
  int returned = 0;
  if (d.shape().backward_data) {
    KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &max_count));
    std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
    KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, d.filter(), d.forward_output(), d.conv(),
                                                                   d.forward_input(), max_count, &returned,
                                                                   perfs.data()));
    return to_common(perfs, returned);
  }
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max_count));
  std::vector<cudnnConvolutionFwdAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, d.forward_input(), d.filter(), d.conv(),
                                                            d.forward_output(), max_count, &returned, perfs.data()));
  return to_common(perfs, returned);
}

std::vector<AlgoPerf> find_all(cudnnHandle_t handle, const ConvDescriptors& d, const ConvPointers& t, void* workspace,
                               std::size_t workspace_bytes) {
  int max_count = 0;
  int returned = 0;
  if (d.shape().backward_data) {
    KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &max_count));
    std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
    KBENCH_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(handle, d.filter(), t.w, d.forward_output(), t.x,
                                                                   d.conv(), d.forward_input(), t.y, max_count,
                                                                   &returned, perfs.data(), workspace,
                                                                   workspace_bytes));
    return to_common(perfs, returned);
  }
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max_count));
  std::vector<cudnnConvolutionFwdAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
  KBENCH_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(handle, d.forward_input(), t.x, d.filter(), t.w, d.conv(),
                                                            d.forward_output(), t.y, max_count, &returned,
                                                            perfs.data(), workspace, workspace_bytes));
  return to_common(perfs, returned);
}

bool explicit_tensor_op(cudnnMathType_t math) {
  return math == CUDNN_TENSOR_OP_MATH || math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
}

// The first usable entry of a ranked list: succeeded, within the workspace limit, and in fp32
// mode not an explicit tensor-op entry. In tf32 mode the descriptor takes the entry's math
// type, as PyTorch does, so what runs is what cuDNN ranked.
Selection pick(const std::vector<AlgoPerf>& ranked, cudnnHandle_t handle, ConvDescriptors& descs,
               std::int64_t limit, MathMode math, const char* how) {
  const bool backward = descs.shape().backward_data;
  std::vector<std::string> rejected;
  for (const AlgoPerf& p : ranked) {
    const std::string name = algorithm_name(backward, p.algo);
    if (p.status != CUDNN_STATUS_SUCCESS) {
      rejected.push_back(fmt::format("{}: {}", name, cudnnGetErrorString(p.status)));
      continue;
    }
    if (math == MathMode::fp32 && explicit_tensor_op(p.math)) {
      rejected.push_back(fmt::format("{}: {} (tensor ops; fp32 allows FMA math only)", name, math_type_name(p.math)));
      continue;
    }
    if (static_cast<std::int64_t>(p.memory) > limit) {
      rejected.push_back(fmt::format("{}: needs {} of workspace, limit {}", name,
                                     format_bytes(static_cast<std::int64_t>(p.memory)), format_bytes(limit)));
      continue;
    }
    const cudnnMathType_t previous = descs.math();
    if (math == MathMode::tf32) descs.set_math(p.math);
    // The workspace under the math type that will run (PyTorch re-queries it the same way).
    const WorkspaceQuery q = query_workspace(handle, descs, p.algo);
    if (is_not_supported(q.status) || static_cast<std::int64_t>(q.bytes) > limit) {
      descs.set_math(previous);
      rejected.push_back(fmt::format("{}: {}", name,
                                     is_not_supported(q.status) ? std::string(cudnnGetErrorString(q.status))
                                                                : "workspace over the limit under its math type"));
      continue;
    }
    AlgoChoice choice;
    choice.algo = p.algo;
    choice.math = descs.math();
    choice.workspace_bytes = q.bytes;
    choice.how = how;
    if (std::string_view(how) == "exhaustive") choice.search_ms = p.time_ms;
    return {choice, {}};
  }
  std::string reason = fmt::format("cuDNN offers no usable {} algorithm", backward ? "backward-data" : "forward");
  if (!rejected.empty()) {
    reason += ": ";
    for (std::size_t i = 0; i < rejected.size(); ++i) reason += (i ? "; " : "") + rejected[i];
  }
  return {std::nullopt, reason};
}

Selection select_forced(cudnnHandle_t handle, ConvDescriptors& descs, const BackendOptions& options) {
  const bool backward = descs.shape().backward_data;
  const auto algo = parse_algorithm(backward, options.variant);
  if (!algo) {
    const auto names = backward ? backward_data_algorithm_names() : forward_algorithm_names();
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return {std::nullopt, fmt::format("unknown cuDNN {} algorithm '{}'; expected one of {}",
                                      backward ? "backward-data" : "forward", options.variant, list)};
  }
  const WorkspaceQuery q = query_workspace(handle, descs, *algo);
  if (is_not_supported(q.status))
    return {std::nullopt, fmt::format("cuDNN does not support {} for this problem ({})", algorithm_name(backward, *algo),
                                      cudnnGetErrorString(q.status))};
  if (static_cast<std::int64_t>(q.bytes) > options.workspace_limit_bytes)
    return {std::nullopt, fmt::format("{} needs {} of workspace, over the limit of {}", algorithm_name(backward, *algo),
                                      format_bytes(static_cast<std::int64_t>(q.bytes)),
                                      format_bytes(options.workspace_limit_bytes))};
  AlgoChoice choice;
  choice.algo = *algo;
  choice.math = descs.math();
  choice.workspace_bytes = q.bytes;
  choice.how = "forced";
  return {choice, {}};
}

}  // namespace

std::vector<int> all_algorithms(bool backward_data) {
  const int count = backward_data ? static_cast<int>(CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT)
                                  : static_cast<int>(CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
  std::vector<int> algos;
  for (int a = 0; a < count; ++a) algos.push_back(a);
  return algos;
}

cudnnMathType_t initial_math(MathMode math) { return math == MathMode::fp32 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH; }

std::optional<std::size_t> algorithm_workspace(cudnnHandle_t handle, const ConvDescriptors& descs, int algo) {
  const WorkspaceQuery q = query_workspace(handle, descs, algo);
  if (is_not_supported(q.status)) return std::nullopt;
  return q.bytes;
}

Selection select_without_running(cudnnHandle_t handle, ConvDescriptors& descs, const BackendOptions& options) {
  if (!options.variant.empty()) return select_forced(handle, descs, options);
  return pick(heuristics(handle, descs), handle, descs, options.workspace_limit_bytes, options.math, "heuristic");
}

std::vector<std::pair<std::string, std::string>> choice_properties(const ConvDescriptors& descs,
                                                                   const AlgoChoice& choice) {
  std::vector<std::pair<std::string, std::string>> props = {
      {"cudnn_call", descs.shape().backward_data ? "cudnnConvolutionBackwardData" : "cudnnConvolutionForward"},
      {"algorithm", algorithm_name(descs.shape().backward_data, choice.algo)},
      {"math_type", math_type_name(choice.math)},
      {"workspace_bytes", std::to_string(choice.workspace_bytes)},
      {"algo_search", choice.how},
      {"cudnn_version", std::to_string(cudnnGetVersion())},
  };
  if (choice.search_ms >= 0) props.emplace_back("search_time_ms", fmt::format("{:.4f}", choice.search_ms));
  return props;
}

std::size_t exhaustive_search_workspace(cudnnHandle_t handle, const ConvDescriptors& descs, std::int64_t limit) {
  std::size_t largest = 0;
  for (const int algo : all_algorithms(descs.shape().backward_data)) {
    const auto bytes = algorithm_workspace(handle, descs, algo);
    if (bytes && static_cast<std::int64_t>(*bytes) <= limit) largest = std::max(largest, *bytes);
  }
  return largest;
}

Selection select_exhaustive(cudnnHandle_t handle, ConvDescriptors& descs, const ConvPointers& tensors,
                            void* workspace, std::size_t workspace_bytes, std::int64_t limit, MathMode math) {
  return pick(find_all(handle, descs, tensors, workspace, workspace_bytes), handle, descs, limit, math, "exhaustive");
}

void execute(cudnnHandle_t handle, const ConvDescriptors& d, const AlgoChoice& choice, const ConvPointers& t,
             void* workspace) {
  const float one = 1.0f;
  const float zero = 0.0f;
  if (d.shape().backward_data) {
    KBENCH_CUDNN_CHECK(cudnnConvolutionBackwardData(handle, &one, d.filter(), t.w, d.forward_output(), t.x, d.conv(),
                                                    static_cast<cudnnConvolutionBwdDataAlgo_t>(choice.algo), workspace,
                                                    choice.workspace_bytes, &zero, d.forward_input(), t.y));
  } else {
    KBENCH_CUDNN_CHECK(cudnnConvolutionForward(handle, &one, d.forward_input(), t.x, d.filter(), t.w, d.conv(),
                                               static_cast<cudnnConvolutionFwdAlgo_t>(choice.algo), workspace,
                                               choice.workspace_bytes, &zero, d.forward_output(), t.y));
  }
}

}  // namespace kbench::gpu
