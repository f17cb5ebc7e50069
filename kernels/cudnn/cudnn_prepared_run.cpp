#include "cudnn/cudnn_prepared_run.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_trial.hpp"
#include "cudnn/cudnn_types.hpp"
#include "cudnn/graph/graph_plan.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/tf32_override.hpp"

namespace kbench::gpu {

namespace {

// Cold samples each candidate of the exhaustive search gets; their median ranks it.
constexpr int kSearchSamples = 3;

CudnnCandidate legacy_candidate(const AlgoChoice& choice) {
  CudnnCandidate candidate;
  candidate.legacy = choice;
  candidate.how = choice.how;
  return candidate;
}

CudnnCandidate graph_candidate(std::size_t config, std::int64_t workspace_bytes, std::string how) {
  CudnnCandidate candidate;
  candidate.engine_config = config;
  candidate.graph_workspace_bytes = workspace_bytes;
  candidate.how = std::move(how);
  return candidate;
}

std::string listed(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

std::string joined(const std::string& head, const std::vector<std::string>& parts) {
  return parts.empty() ? head : head + ": " + listed(parts);
}

}  // namespace

CudnnPreparedRun::CudnnPreparedRun(const ConvProblem& problem, const BackendOptions& options,
                                   std::shared_ptr<CudnnHandle> handle)
    : GpuPreparedRun(problem, options.device),
      handle_(std::move(handle)),
      stream_reset_(handle_),
      descs_(cudnn_shape(problem), initial_math(options.math, problem.dtype)),
      graph_attributes_(cudnn_graph_attributes(descs_.shape())) {
  if (handle_->device() != device())
    throw std::logic_error(
        fmt::format("cuDNN handle for device {} given to a run on device {}", handle_->device(), device()));
  for (const GraphTensor* t : bound_tensors(graph_attributes_)) graph_tensors_.emplace_back(t->uid, data(*t->buffer));
  const bool searches = options.algo_search == AlgoSearch::exhaustive && options.variant.empty();
  if (is_graph_variant(options.variant)) {
    prepare_graph_variant(options);
  } else if (searches && graph_api_built()) {
    search_both_apis(options);
  } else if (searches) {
    // cuDNN times each algorithm on our buffers: give it real data, not whatever cudaMalloc
    // left there (zeros run faster than real data on some kernels). The runner fills again
    // with its own seed before verifying.
    fill_inputs(0);
    const std::size_t search_bytes = exhaustive_search_workspace(handle_->get(), descs_, options.workspace_limit_bytes);
    DeviceBuffer<unsigned char> search_workspace(static_cast<std::int64_t>(search_bytes));
    KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream()));
    const Selection found = select_exhaustive(handle_->get(), descs_, tensors(), search_workspace.data(), search_bytes,
                                              options.workspace_limit_bytes, options.math);
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
    commit_to_first_that_runs(found);
  } else {
    commit_to_first_that_runs(select_without_running(handle_->get(), descs_, options));
  }
}

std::string CudnnPreparedRun::name_of(const CudnnCandidate& candidate) const {
  if (candidate.legacy) return algorithm_name(descs_.shape().call.api, candidate.legacy->algo);
  return engine_config_name(graph_->configs().at(*candidate.engine_config).name);
}

void CudnnPreparedRun::commit(const CudnnCandidate& candidate) {
  running_ = candidate;
  if (candidate.legacy) {
    choice_ = *candidate.legacy;
    descs_.set_math(choice_.math);
  }
  const std::int64_t bytes = candidate.legacy ? static_cast<std::int64_t>(candidate.legacy->workspace_bytes)
                                              : candidate.graph_workspace_bytes;
  workspace_ = DeviceBuffer<unsigned char>();  // the previous candidate's, freed before the next is allocated
  workspace_ = DeviceBuffer<unsigned char>(bytes);
  enqueue(stream());
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

void CudnnPreparedRun::commit_to_first_that_runs(const Selection& selection) {
  if (!selection.choice) throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, selection.reason);
  std::vector<CudnnCandidate> candidates{legacy_candidate(*selection.choice)};
  for (const AlgoChoice& alternative : selection.alternatives) candidates.push_back(legacy_candidate(alternative));
  const auto name = [&](std::size_t i) { return name_of(candidates[i]); };
  // The last candidate committed is the one that ran: the trial stops there.
  const TrialOutcome outcome = first_that_runs(candidates.size(), name, [&](std::size_t i) { commit(candidates[i]); });
  skipped_ = outcome.skipped;
  if (!outcome.chosen)
    throw CudnnError(CUDNN_STATUS_EXECUTION_FAILED,
                     joined(fmt::format("no usable cuDNN {} algorithm executes", api_noun(descs_.shape().call.api)),
                            skipped_));
}

void CudnnPreparedRun::prepare_graph_variant(const BackendOptions& options) {
  const ParsedGraphVariant parsed = parse_graph_variant(options.variant);
  if (!parsed.variant) throw CudnnError(CUDNN_STATUS_BAD_PARAM, parsed.error);
  if (!graph_api_built()) throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, "cuDNN's graph API is " + graph_api_description());
  graph_ = make_graph(handle_->get(), problem(), options, parsed.variant->config);
  const std::string how = parsed.variant->config ? "forced" : "heuristic";
  GraphPick passed_over;
  for (std::size_t from = 0;;) {
    const GraphPick pick = first_usable_config(*graph_, from, options.workspace_limit_bytes);
    passed_over.ruled_out.insert(passed_over.ruled_out.end(), pick.ruled_out.begin(), pick.ruled_out.end());
    if (!pick.config) break;
    const CudnnCandidate candidate = graph_candidate(*pick.config, pick.workspace_bytes, how);
    const TrialOutcome trial = first_that_runs(
        1, [&](std::size_t) { return name_of(candidate); }, [&](std::size_t) { commit(candidate); });
    if (trial.chosen) return;
    skipped_.push_back(trial.skipped.front());
    from = *pick.config + 1;
  }
  if (skipped_.empty()) throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, no_usable_config(passed_over));
  throw CudnnError(CUDNN_STATUS_EXECUTION_FAILED,
                   joined("no engine config of cuDNN's graph API that builds executes", skipped_));
}

void CudnnPreparedRun::search_both_apis(const BackendOptions& options) {
  // Real data, as cuDNN's own search gets: zeros run faster than real data on some kernels.
  fill_inputs(0);
  const CudnnApi api = descs_.shape().call.api;
  const std::int64_t limit = options.workspace_limit_bytes;
  std::vector<CudnnCandidate> candidates;
  std::vector<std::string> ruled_out;
  // Each legacy algorithm as `cudnn:NAME` runs it: under the mode's math type.
  const WorkspaceQueryFn query = workspace_query(handle_->get(), descs_);
  for (const int algo : all_algorithms(api)) {
    Selection forced = select_forced(algo, query, api, limit, descs_.math());
    if (!forced.choice) {
      ruled_out.push_back(forced.reason);
      continue;
    }
    forced.choice->how = "exhaustive";
    candidates.push_back(legacy_candidate(*forced.choice));
  }
  const std::size_t legacy_count = candidates.size();
  try {
    graph_ = make_graph(handle_->get(), problem(), options, std::nullopt);
    for (std::size_t from = 0;;) {
      const GraphPick pick = first_usable_config(*graph_, from, limit);
      ruled_out.insert(ruled_out.end(), pick.ruled_out.begin(), pick.ruled_out.end());
      if (!pick.config) break;
      candidates.push_back(graph_candidate(*pick.config, pick.workspace_bytes, "exhaustive"));
      from = *pick.config + 1;
    }
  } catch (const CudnnError& e) {
    ruled_out.push_back(std::string("graph: ") + e.what());
  }

  // Every candidate under kbench's own cold protocol, not a library's warm back-to-back timing.
  std::optional<std::size_t> fastest;
  double fastest_seconds = std::numeric_limits<double>::infinity();
  std::vector<std::string> failed;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const TrialOutcome trial = first_that_runs(
        1, [&](std::size_t) { return name_of(candidates[i]); }, [&](std::size_t) { commit(candidates[i]); });
    if (!trial.chosen) {
      failed.push_back(trial.skipped.front());
      continue;
    }
    std::vector<double> seconds;
    for (int s = 0; s < kSearchSamples; ++s) seconds.push_back(timed_run({true, false}).seconds);
    std::sort(seconds.begin(), seconds.end());
    if (const double median = seconds[seconds.size() / 2]; median < fastest_seconds) {
      fastest = i;
      fastest_seconds = median;
    }
  }
  if (!fastest) {
    std::vector<std::string> why = ruled_out;
    why.insert(why.end(), failed.begin(), failed.end());
    throw CudnnError(CUDNN_STATUS_EXECUTION_FAILED,
                     joined("no cuDNN algorithm or engine config runs the problem", why));
  }
  commit(candidates[*fastest]);
  search_ = {
      {"search_time_ms", fmt::format("{:.4f}", fastest_seconds * 1e3)},
      {"search_timing", fmt::format("kbench's own cold protocol (L2 flushed), median of {} samples per candidate, "
                                    "legacy algorithms and graph engine configs alike",
                                    kSearchSamples)},
      {"search_candidates", fmt::format("{} timed of {} legacy algorithms and {} graph engine configs; {} ruled out",
                                        candidates.size() - failed.size(), legacy_count,
                                        candidates.size() - legacy_count, ruled_out.size())},
  };
  if (!failed.empty()) search_.emplace_back("search_failed_trial", listed(failed));
}

std::string CudnnPreparedRun::implementation() const { return "cudnn:" + name_of(running_); }

MathMode CudnnPreparedRun::math_used() const {
  // cuDNN does not say whether a kernel allowed TF32 actually took it; "tf32" here means the
  // chosen algorithm (or engine config, by its TENSOR_CORE note) ran with tensor-core TF32 permitted
  // (docs/gpu-runtime.md). Under NVIDIA_TF32_OVERRIDE=0 it is not permitted. Half data: fp32
  // accumulation of exact products, whichever math type (cudnn_types.hpp).
  if (running_.engine_config)
    return graph_math_used(problem().dtype, graph_->configs().at(*running_.engine_config),
                           tf32_disabled_by_environment());
  return cudnn_math_used(problem().dtype, choice_.math, tf32_disabled_by_environment());
}

OutputRounding CudnnPreparedRun::output_rounding() const {
  const bool separate_add = !running_.engine_config && descs_.shape().call.bias == BiasStep::add_to_written;
  return separate_add ? OutputRounding::bias_added_after : OutputRounding::once;
}

std::vector<std::pair<std::string, std::string>> CudnnPreparedRun::properties() const {
  std::vector<std::pair<std::string, std::string>> props;
  if (running_.engine_config) {
    props = graph_config_properties(graph_attributes_, graph_->configs().at(*running_.engine_config),
                                    running_.graph_workspace_bytes, running_.how);
  } else {
    props = choice_properties(descs_, choice_);
    props.insert(props.begin(), {"cudnn_api", "legacy"});
    switch (descs_.shape().call.bias) {
      case BiasStep::add_to_written: props.emplace_back("bias", "separate cudnnAddTensor, timed"); break;
      case BiasStep::gradient: props.emplace_back("grad_bias", "separate cudnnConvolutionBackwardBias, timed"); break;
      case BiasStep::none: break;
    }
  }
  if (!skipped_.empty()) props.emplace_back("algorithms_failed_trial", listed(skipped_));
  if (const auto value = nvidia_tf32_override()) props.emplace_back("nvidia_tf32_override", *value);
  props.insert(props.end(), search_.begin(), search_.end());
  return props;
}

std::vector<std::string> CudnnPreparedRun::warnings() const {
  std::vector<std::string> out = GpuPreparedRun::warnings();
  if (auto older = loaded_cudnn_version_warning()) out.push_back(std::move(*older));
  if (!skipped_.empty())
    out.push_back(
        fmt::format("cuDNN's first choice did not execute; ran {} instead ({})", implementation(), skipped_.front()));
  const bool tf32_allowed = running_.engine_config
                                ? has_note(graph_->configs().at(*running_.engine_config), "TENSOR_CORE")
                                : choice_.math != CUDNN_FMA_MATH;
  if (tf32_disabled_by_environment() && problem().dtype == DType::fp32 && tf32_allowed)
    out.push_back("NVIDIA_TF32_OVERRIDE=0 is set: cuDNN ran FP32 FMA kernels where TF32 was allowed");
  return out;
}

ConvPointers CudnnPreparedRun::tensors() {
  const CudnnCall& call = descs_.shape().call;
  return {data(buffer_of(call, CudnnTensor::forward_input)), data(buffer_of(call, CudnnTensor::filter)),
          data(buffer_of(call, CudnnTensor::forward_output))};
}

void CudnnPreparedRun::grad_bias_after(const CudnnCall& call) {
  // grad_bias = sum of grad_output over the batch and space; beta 0: the poisoned buffer is never read.
  // grad_output's descriptor is never the filter (cudnn_pass.cpp), so it is one of the two tensors.
  const cudnnTensorDescriptor_t grad_output = call.bias_operand == CudnnTensor::forward_input
                                                  ? descs_.forward_input()
                                                  : descs_.forward_output();
  const float one = 1.0f;
  const float zero = 0.0f;
  KBENCH_CUDNN_CHECK(cudnnConvolutionBackwardBias(handle_->get(), &one, grad_output,
                                                  data(buffer_of(call, call.bias_operand)), &zero, descs_.bias(),
                                                  data(Operand::bias)));
}

void CudnnPreparedRun::enqueue(cudaStream_t stream) {
  KBENCH_CUDNN_CHECK(cudnnSetStream(handle_->get(), stream));
  const CudnnCall& call = descs_.shape().call;
  if (running_.engine_config) {
    // The forward bias is fused into the graph; grad_bias is not (graph_attributes.hpp).
    graph_->execute(handle_->get(), *running_.engine_config, graph_tensors_, workspace_.data());
    if (graph_attributes_.grad_bias_after) grad_bias_after(call);
    return;
  }
  execute(handle_->get(), descs_, choice_, tensors(), workspace_.data());
  if (call.bias == BiasStep::gradient) grad_bias_after(call);
  if (call.bias != BiasStep::add_to_written) return;
  // Scaling factors are float for every data type but double; the bias shares the tensors' dtype.
  const cudnnTensorDescriptor_t written = call.bias_operand == CudnnTensor::forward_input ? descs_.forward_input()
                                                                                          : descs_.forward_output();
  const float one = 1.0f;
  KBENCH_CUDNN_CHECK(
      cudnnAddTensor(handle_->get(), &one, descs_.bias(), b_data(), &one, written, data(buffer_of(call, call.bias_operand))));
}

}  // namespace kbench::gpu
