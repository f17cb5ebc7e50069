#include "cudnn/graph/graph_selection.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnn/cudnn_algo_select.hpp"
#include "run/math_policy.hpp"

namespace kbench::gpu {

GraphMathPolicy graph_math_policy(MathMode math, DType dtype) {
  GraphMathPolicy policy{{"DOWN_CONVERT_INPUTS"}};
  if (dtype == DType::fp32 && math == MathMode::fp32) policy.excluded_notes.emplace_back("TENSOR_CORE");
  return policy;
}

std::string excluded_by(const std::vector<std::string>& notes, const GraphMathPolicy& policy) {
  std::string why;
  for (const std::string& note : policy.excluded_notes) {
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) continue;
    why += why.empty() ? "ruled out by its numerical note " : ", ";
    if (note == "TENSOR_CORE")
      why += "TENSOR_CORE (TF32 tensor cores: --math fp32 allows FMA math only)";
    else if (note == "DOWN_CONVERT_INPUTS")
      why += "DOWN_CONVERT_INPUTS (it converts the inputs to a narrower type)";
    else
      why += note;
  }
  return why;
}

bool has_note(const GraphEngineConfig& config, const std::string& note) {
  return std::find(config.numerical_notes.begin(), config.numerical_notes.end(), note) != config.numerical_notes.end();
}

MathMode graph_math_used(DType dtype, const GraphEngineConfig& config, bool tf32_disabled) {
  return reported_math(dtype, has_note(config, "TENSOR_CORE") && !tf32_disabled);
}

GraphConfigVerdict judge_graph_config(const GraphEngineConfig& config,
                                      const std::function<std::optional<std::string>()>& build,
                                      const std::function<std::int64_t()>& workspace, std::int64_t limit) {
  const std::string name = engine_config_name(config.name);
  if (!config.excluded.empty()) return {std::nullopt, fmt::format("{}: {}", name, config.excluded)};
  if (const auto failure = build()) return {std::nullopt, fmt::format("{}: {}", name, *failure)};
  const std::int64_t bytes = workspace();
  // Judged as size_t like the legacy algorithms' sizes: a negative answer is an impossible one.
  const std::size_t size = bytes < 0 ? kAbsurdWorkspaceBytes : static_cast<std::size_t>(bytes);
  if (judge_workspace(size, limit) != WorkspaceVerdict::fits)
    return {std::nullopt, workspace_rejection(name, size, limit)};
  return {bytes, {}};
}

}  // namespace kbench::gpu
