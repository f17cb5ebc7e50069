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
  const CudnnApi api = cudnn_call(problem).api;
  ConvDescriptors descs(cudnn_shape(problem), initial_math(options.math, problem.dtype));
  const Selection selection = select_without_running(handle, descs, options);
  if (!selection.choice) return {Support::no(selection.reason), {}, {}};
  const AlgoChoice& chosen = *selection.choice;
  const std::string chosen_name = algorithm_name(api, chosen.algo);
  BackendPlan out{Support::yes(), {{chosen_name, "cudnn:" + chosen_name, choice_properties(descs, chosen)}}, {}};
  if (!options.variant.empty()) return out;
  // Each asked under the mode's own math type, as `cudnn:NAME` would prepare it.
  const WorkspaceQueryFn query = workspace_query(handle, descs);
  const cudnnMathType_t math = initial_math(options.math, problem.dtype);
  for (const int algo : all_algorithms(api)) {
    if (algo == chosen.algo) continue;
    const std::string name = algorithm_name(api, algo);
    const Selection forced = select_forced(algo, query, api, options.workspace_limit_bytes, math);
    if (forced.choice) {
      out.variants.push_back({name, "cudnn:" + name, choice_properties(descs, *forced.choice)});
    } else {
      out.ruled_out.emplace_back(name, forced.reason);
    }
  }
  return out;
}

}  // namespace kbench::gpu
