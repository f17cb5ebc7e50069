#include "cudnn/cudnn_algo_select.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

template <class Perf>
std::vector<RankedAlgo> to_ranked(const std::vector<Perf>& perfs, int returned) {
  std::vector<RankedAlgo> out;
  for (int i = 0; i < returned && i < static_cast<int>(perfs.size()); ++i) {
    const Perf& p = perfs[static_cast<std::size_t>(i)];
    out.push_back({static_cast<int>(p.algo), p.status, p.time, p.memory, p.mathType});
  }
  return out;
}

bool is_not_supported(cudnnStatus_t status) { return CUDNN_STATUS_CATEGORY(status) == CUDNN_STATUS_NOT_SUPPORTED; }

// Each call's descriptors in cuDNN's own argument order (cudnn_pass.hpp): forward (x, w, y),
// backward data (w, dy = forward_output, dx = forward_input), backward filter (x, dy, dw).
WorkspaceQuery query_workspace(cudnnHandle_t handle, const ConvDescriptors& d, int algo) {
  WorkspaceQuery q;
  switch (d.shape().call.api) {
    case CudnnApi::forward:
      q.status =
          cudnnGetConvolutionForwardWorkspaceSize(handle, d.forward_input(), d.filter(), d.conv(), d.forward_output(),
                                                  static_cast<cudnnConvolutionFwdAlgo_t>(algo), &q.bytes);
      break;
    case CudnnApi::backward_data:
      q.status = cudnnGetConvolutionBackwardDataWorkspaceSize(handle, d.filter(), d.forward_output(), d.conv(),
                                                              d.forward_input(),
                                                              static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), &q.bytes);
      break;
    case CudnnApi::backward_filter:
      q.status = cudnnGetConvolutionBackwardFilterWorkspaceSize(
          handle, d.forward_input(), d.forward_output(), d.conv(), d.filter(),
          static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), &q.bytes);
      break;
  }
  return q;
}

std::vector<RankedAlgo> heuristics(cudnnHandle_t handle, const ConvDescriptors& d) {
  int max_count = 0;
  int returned = 0;
  switch (d.shape().call.api) {
    case CudnnApi::forward: {
      KBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max_count));
      std::vector<cudnnConvolutionFwdAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
      KBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, d.forward_input(), d.filter(), d.conv(),
                                                                d.forward_output(), max_count, &returned, perfs.data()));
      return to_ranked(perfs, returned);
    }
    case CudnnApi::backward_data: {
      KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &max_count));
      std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
      KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(
          handle, d.filter(), d.forward_output(), d.conv(), d.forward_input(), max_count, &returned, perfs.data()));
      return to_ranked(perfs, returned);
    }
    case CudnnApi::backward_filter: break;
  }
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &max_count));
  std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
      handle, d.forward_input(), d.forward_output(), d.conv(), d.filter(), max_count, &returned, perfs.data()));
  return to_ranked(perfs, returned);
}

// Find*Ex writes the call's output (the pass's computed tensor) while it times each algorithm.
std::vector<RankedAlgo> find_all(cudnnHandle_t handle, const ConvDescriptors& d, const ConvPointers& t, void* workspace,
                                 std::size_t workspace_bytes) {
  int max_count = 0;
  int returned = 0;
  switch (d.shape().call.api) {
    case CudnnApi::forward: {
      KBENCH_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max_count));
      std::vector<cudnnConvolutionFwdAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
      KBENCH_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(
          handle, d.forward_input(), t.forward_input, d.filter(), t.filter, d.conv(), d.forward_output(),
          t.forward_output, max_count, &returned, perfs.data(), workspace, workspace_bytes));
      return to_ranked(perfs, returned);
    }
    case CudnnApi::backward_data: {
      KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &max_count));
      std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
      KBENCH_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(
          handle, d.filter(), t.filter, d.forward_output(), t.forward_output, d.conv(), d.forward_input(),
          t.forward_input, max_count, &returned, perfs.data(), workspace, workspace_bytes));
      return to_ranked(perfs, returned);
    }
    case CudnnApi::backward_filter: break;
  }
  KBENCH_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &max_count));
  std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> perfs(static_cast<std::size_t>(max_count));
  KBENCH_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
      handle, d.forward_input(), t.forward_input, d.forward_output(), t.forward_output, d.conv(), d.filter(), t.filter,
      max_count, &returned, perfs.data(), workspace, workspace_bytes));
  return to_ranked(perfs, returned);
}

bool explicit_tensor_op(cudnnMathType_t math) {
  return math == CUDNN_TENSOR_OP_MATH || math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
}

std::string bytes_text(std::size_t bytes) {
  return bytes >= kAbsurdWorkspaceBytes ? fmt::format("{} bytes", bytes)
                                        : format_bytes(static_cast<std::int64_t>(bytes));
}

std::string unknown_algorithm(CudnnApi api, const std::string& variant) {
  std::string list;
  for (const auto& n : algorithm_names(api)) list += (list.empty() ? "" : ", ") + n;
  return fmt::format("unknown cuDNN {} algorithm '{}'; expected one of {}", api_noun(api), variant, list);
}

std::string join_reasons(std::string head, const std::vector<std::string>& rejected) {
  for (std::size_t i = 0; i < rejected.size(); ++i) head += (i ? "; " : ": ") + rejected[i];
  return head;
}

}  // namespace

int algorithm_count(CudnnApi api) {
  switch (api) {
    case CudnnApi::forward: return static_cast<int>(CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    case CudnnApi::backward_data: return static_cast<int>(CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    case CudnnApi::backward_filter: break;
  }
  return static_cast<int>(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
}

std::vector<int> all_algorithms(CudnnApi api) {
  const int count = algorithm_count(api);
  std::vector<int> algos;
  for (int a = 0; a < count; ++a) algos.push_back(a);
  return algos;
}

WorkspaceVerdict judge_workspace(std::size_t bytes, std::int64_t limit) {
  if (bytes >= kAbsurdWorkspaceBytes) return WorkspaceVerdict::absurd;
  if (limit < 0 || bytes > static_cast<std::size_t>(limit)) return WorkspaceVerdict::over_limit;
  return WorkspaceVerdict::fits;
}

std::string workspace_rejection(const std::string& name, std::size_t bytes, std::int64_t limit) {
  if (judge_workspace(bytes, limit) == WorkspaceVerdict::absurd)
    return fmt::format("{}: cuDNN quoted an impossible workspace of {} bytes", name, bytes);
  return fmt::format("{}: needs {} of workspace, over the limit of {}", name, bytes_text(bytes),
                     format_bytes(std::max<std::int64_t>(limit, 0)));
}

WorkspaceQueryFn workspace_query(cudnnHandle_t handle, ConvDescriptors& descs) {
  return [handle, &descs](int algo, cudnnMathType_t math) {
    const cudnnMathType_t previous = descs.math();
    descs.set_math(math);
    const WorkspaceQuery q = query_workspace(handle, descs, algo);
    descs.set_math(previous);
    return q;
  };
}

std::string query_rejection(const std::string& name, cudnnStatus_t status) {
  if (is_not_supported(status)) return fmt::format("{}: {}", name, cudnnGetErrorString(status));
  return fmt::format("{}: cuDNN's workspace query failed: {}", name, cudnnGetErrorString(status));
}

Selection select_ranked(const std::vector<RankedAlgo>& ranked, const WorkspaceQueryFn& query, CudnnApi api,
                        std::int64_t limit, RankedMath math, cudnnMathType_t initial, const char* how) {
  Selection out;
  std::vector<std::string> rejected;
  for (const RankedAlgo& p : ranked) {
    const std::string name = algorithm_name(api, p.algo);
    if (p.status != CUDNN_STATUS_SUCCESS) {
      rejected.push_back(fmt::format("{}: {}", name, cudnnGetErrorString(p.status)));
      continue;
    }
    // Whatever the mode and dtype, as the graph path rules out DOWN_CONVERT_INPUTS (graph_selection.hpp):
    // an entry allowed to convert its inputs to a narrower type computes on other data than it was given.
    if (p.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION) {
      rejected.push_back(fmt::format("{}: {} (it may convert the inputs to a narrower type)", name,
                                     math_type_name(p.math)));
      continue;
    }
    if (math == RankedMath::fma_only && explicit_tensor_op(p.math)) {
      rejected.push_back(fmt::format("{}: {} (tensor ops; fp32 allows FMA math only)", name, math_type_name(p.math)));
      continue;
    }
    if (judge_workspace(p.memory, limit) != WorkspaceVerdict::fits) {
      rejected.push_back(workspace_rejection(name, p.memory, limit));
      continue;
    }
    // fma_only stays FMA whatever the entry reports; entry_own runs the entry's own math type.
    const cudnnMathType_t runs_as = math == RankedMath::entry_own ? p.math : initial;
    const WorkspaceQuery q = query(p.algo, runs_as);
    if (q.status != CUDNN_STATUS_SUCCESS) {
      rejected.push_back(query_rejection(name, q.status));
      continue;
    }
    if (judge_workspace(q.bytes, limit) != WorkspaceVerdict::fits) {
      rejected.push_back(workspace_rejection(name, q.bytes, limit) + " (under its math type)");
      continue;
    }
    AlgoChoice choice;
    choice.algo = p.algo;
    choice.math = runs_as;
    choice.workspace_bytes = q.bytes;
    choice.how = how;
    if (std::string_view(how) == "exhaustive") choice.search_ms = p.time_ms;
    if (!out.choice)
      out.choice = choice;
    else
      out.alternatives.push_back(choice);
  }
  if (!out.choice)
    out.reason = join_reasons(
        fmt::format("cuDNN offers no usable {} algorithm", api_noun(api)), rejected);
  return out;
}

Selection select_forced(int algo, const WorkspaceQueryFn& query, CudnnApi api, std::int64_t limit,
                        cudnnMathType_t math) {
  const std::string name = algorithm_name(api, algo);
  const WorkspaceQuery q = query(algo, math);
  if (is_not_supported(q.status))
    return {std::nullopt,
            {},
            fmt::format("cuDNN does not support {} for this problem ({})", name, cudnnGetErrorString(q.status))};
  if (q.status != CUDNN_STATUS_SUCCESS) return {std::nullopt, {}, query_rejection(name, q.status)};
  if (judge_workspace(q.bytes, limit) != WorkspaceVerdict::fits)
    return {std::nullopt, {}, workspace_rejection(name, q.bytes, limit)};
  AlgoChoice choice;
  choice.algo = algo;
  choice.math = math;
  choice.workspace_bytes = q.bytes;
  choice.how = "forced";
  return {choice, {}, {}};
}

std::size_t largest_usable_workspace(const std::vector<int>& algos, const WorkspaceQueryFn& query, cudnnMathType_t math,
                                     std::int64_t limit) {
  std::size_t largest = 0;
  for (const int algo : algos) {
    const WorkspaceQuery q = query(algo, math);
    if (q.status == CUDNN_STATUS_SUCCESS && judge_workspace(q.bytes, limit) == WorkspaceVerdict::fits)
      largest = std::max(largest, q.bytes);
  }
  return largest;
}

Selection select_without_running(cudnnHandle_t handle, ConvDescriptors& descs, const BackendOptions& options) {
  const CudnnApi api = descs.shape().call.api;
  const WorkspaceQueryFn query = workspace_query(handle, descs);
  if (!options.variant.empty()) {
    const auto algo = parse_algorithm(api, options.variant);
    if (!algo) return {std::nullopt, {}, unknown_algorithm(api, options.variant)};
    return select_forced(*algo, query, api, options.workspace_limit_bytes, descs.math());
  }
  return select_ranked(heuristics(handle, descs), query, api, options.workspace_limit_bytes,
                       ranked_math(options.math, descs.shape().dtype), descs.math(), "heuristic");
}

std::vector<std::pair<std::string, std::string>> choice_properties(const ConvDescriptors& descs,
                                                                   const AlgoChoice& choice) {
  std::vector<std::pair<std::string, std::string>> props = {
      {"cudnn_call", std::string(api_function(descs.shape().call.api))},
      {"algorithm", algorithm_name(descs.shape().call.api, choice.algo)},
      {"data_type", data_type_name(cudnn_data_type(descs.shape().dtype))},
      {"compute_type", data_type_name(cudnn_compute_type(descs.shape().dtype))},
      {"layout", descs.shape().channels_last ? "nhwc (channels-last strides, CUDNN_TENSOR_NHWC filter)"
                                             : "nchw (packed strides, CUDNN_TENSOR_NCHW filter)"},
      {"math_type", math_type_name(choice.math)},
      {"workspace_bytes", std::to_string(choice.workspace_bytes)},
      {"algo_search", choice.how},
      {"cudnn_version", std::to_string(cudnnGetVersion())},
  };
  if (choice.search_ms >= 0) {
    props.emplace_back("search_time_ms", fmt::format("{:.4f}", choice.search_ms));
    // cudnnFind times each algorithm back to back on warm caches, not under kbench's protocol.
    props.emplace_back("search_timing", "cuDNN's own (L2 warm, no flush): not comparable with kbench's cold median");
  }
  return props;
}

std::size_t exhaustive_search_workspace(cudnnHandle_t handle, ConvDescriptors& descs, std::int64_t limit) {
  return largest_usable_workspace(all_algorithms(descs.shape().call.api), workspace_query(handle, descs),
                                  descs.math(), limit);
}

Selection select_exhaustive(cudnnHandle_t handle, ConvDescriptors& descs, const ConvPointers& tensors, void* workspace,
                            std::size_t workspace_bytes, std::int64_t limit, MathMode math) {
  return select_ranked(find_all(handle, descs, tensors, workspace, workspace_bytes), workspace_query(handle, descs),
                       descs.shape().call.api, limit, ranked_math(math, descs.shape().dtype), descs.math(),
                       "exhaustive");
}

void execute(cudnnHandle_t handle, const ConvDescriptors& d, const AlgoChoice& choice, const ConvPointers& t,
             void* workspace) {
  const float one = 1.0f;
  const float zero = 0.0f;
  switch (d.shape().call.api) {
    case CudnnApi::forward:
      KBENCH_CUDNN_CHECK(cudnnConvolutionForward(handle, &one, d.forward_input(), t.forward_input, d.filter(), t.filter,
                                                 d.conv(), static_cast<cudnnConvolutionFwdAlgo_t>(choice.algo),
                                                 workspace, choice.workspace_bytes, &zero, d.forward_output(),
                                                 t.forward_output));
      return;
    case CudnnApi::backward_data:
      KBENCH_CUDNN_CHECK(cudnnConvolutionBackwardData(handle, &one, d.filter(), t.filter, d.forward_output(),
                                                      t.forward_output, d.conv(),
                                                      static_cast<cudnnConvolutionBwdDataAlgo_t>(choice.algo), workspace,
                                                      choice.workspace_bytes, &zero, d.forward_input(), t.forward_input));
      return;
    case CudnnApi::backward_filter:
      KBENCH_CUDNN_CHECK(cudnnConvolutionBackwardFilter(handle, &one, d.forward_input(), t.forward_input,
                                                        d.forward_output(), t.forward_output, d.conv(),
                                                        static_cast<cudnnConvolutionBwdFilterAlgo_t>(choice.algo),
                                                        workspace, choice.workspace_bytes, &zero, d.filter(), t.filter));
      return;
  }
}

}  // namespace kbench::gpu
