#include "cudnn/cudnn_plan.hpp"

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_descriptors.hpp"
#include "cudnn/cudnn_shape.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

BackendPlan plan_cudnn(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options) {
  const bool backward = problem.transposed();
  ConvDescriptors descs(cudnn_shape(problem), initial_math(options.math));
  const Selection selection = select_without_running(handle, descs, options);
  if (!selection.choice) return {Support::no(selection.reason), {}, {}};
  const AlgoChoice& chosen = *selection.choice;
  const std::string chosen_name = algorithm_name(backward, chosen.algo);
  BackendPlan out{Support::yes(), {{chosen_name, "cudnn:" + chosen_name, choice_properties(descs, chosen)}}, {}};
  if (!options.variant.empty()) return out;
  for (const int algo : all_algorithms(backward)) {
    if (algo == chosen.algo) continue;
    const std::string name = algorithm_name(backward, algo);
    // Each asked under the mode's own math type, as `cudnn:NAME` would prepare it.
    const ConvDescriptors fresh(cudnn_shape(problem), initial_math(options.math));
    std::optional<std::size_t> workspace;
    try {
      workspace = algorithm_workspace(handle, fresh, algo);
    } catch (const std::exception& e) {  // a status other than "not supported": this algorithm only
      out.ruled_out.emplace_back(name, fmt::format("cuDNN's workspace query failed: {}", e.what()));
      continue;
    }
    if (!workspace) {
      out.ruled_out.emplace_back(name, "cuDNN does not support it for this problem");
    } else if (static_cast<std::int64_t>(*workspace) > options.workspace_limit_bytes) {
      out.ruled_out.emplace_back(name, fmt::format("needs {} of workspace, over the limit of {}",
                                                   format_bytes(static_cast<std::int64_t>(*workspace)),
                                                   format_bytes(options.workspace_limit_bytes)));
    } else {
      AlgoChoice other{algo, fresh.math(), *workspace, "forced", -1};
      out.variants.push_back({name, "cudnn:" + name, choice_properties(fresh, other)});
    }
  }
  return out;
}

}  // namespace kbench::gpu
