#pragma once
// What the cuDNN backend makes of the graph API's engine configs, decided from the frontend's answers
// (pure: tests/gpu/test_cudnn_graph_host.cpp fakes them): which numerical notes rule a config out
// under a math mode, what a config's result reports as its math, and whether a config can run within
// the workspace limit.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "cudnn/graph/graph_variant.hpp"

namespace kbench::gpu {

// The numerical notes that rule a config out, as PyTorch filters them: DOWN_CONVERT_INPUTS always
// (inputs converted to a narrower type would make math_used untrue), and TENSOR_CORE for fp32 data
// under --math fp32 (TF32 tensor cores; half data computes in fp32 on tensor cores either way).
struct GraphMathPolicy {
  std::vector<std::string> excluded_notes;
};
GraphMathPolicy graph_math_policy(MathMode math, DType dtype);
// Why `notes` rule a config out under `policy` ("carries TENSOR_CORE, ..."), or "" when they do not.
std::string excluded_by(const std::vector<std::string>& notes, const GraphMathPolicy& policy);

// One engine config of a problem's graph, in the order cuDNN ranked it.
struct GraphEngineConfig {
  EngineConfigName name;                     // the variant name: engine/<index>:<knobs>
  std::string frontend_tag;                  // cudnn-frontend's own name for it (get_plan_name_at_index)
  std::string ranked_by;                     // "heuristics mode A", "heuristics mode FALLBACK", "forced"
  std::vector<std::string> numerical_notes;  // "TENSOR_CORE", "DOWN_CONVERT_INPUTS", ...
  std::string excluded;                      // non-empty: the math policy rules it out, and why
};

bool has_note(const GraphEngineConfig& config, const std::string& note);

// The math a config's result reports: fp32 for half data (fp32 accumulation of exact products); for
// fp32 data tf32 when the config carries TENSOR_CORE, unless NVIDIA_TF32_OVERRIDE=0 disabled TF32.
MathMode graph_math_used(DType dtype, const GraphEngineConfig& config, bool tf32_disabled);

// Whether a config can run: its workspace, or why not. `build` builds its plan (nothing, or why it did
// not build) and is not called for a config the policy excluded; `workspace` is asked only of a built one.
struct GraphConfigVerdict {
  std::optional<std::int64_t> workspace_bytes;
  std::string reason;  // when there is no workspace: "engine/12:TILEK=2: why"
};
GraphConfigVerdict judge_graph_config(const GraphEngineConfig& config,
                                      const std::function<std::optional<std::string>()>& build,
                                      const std::function<std::int64_t()>& workspace, std::int64_t limit);

}  // namespace kbench::gpu
