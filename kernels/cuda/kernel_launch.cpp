#include "cuda/kernel_launch.hpp"

#include <cstddef>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "cuda/registry.hpp"
#include "cuda/passes/backward_data_launch.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv {

namespace {

// Each family's launcher, in families.def's order (the enum's): one table, so no family is missed.
const FamilyLauncher& (*const kLaunchers[])() = {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) &launcher,
#include "cuda/families.def"
};
static_assert(std::size(kLaunchers) == std::size(kAllFamilies), "every family has a launcher");

const FamilyLauncher& launcher_for(Family f) {
  const auto row = static_cast<std::size_t>(f);
  if (row >= std::size(kLaunchers))
    throw std::logic_error(fmt::format("no launcher for kernel family {}", static_cast<int>(f)));
  return kLaunchers[row]();
}

// The current device's facts that the choice's description and launch count with.
LaunchDevice current_launch_device(const KernelChoice& choice, const ConvProblem& problem) {
  int device = 0;
  LaunchDevice facts;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&facts.sms, cudaDevAttrMultiProcessorCount, device));
  if (const auto configure = launcher_for(choice.family).configure) configure(choice, problem, facts);
  return facts;
}

}  // namespace

std::unique_ptr<KernelLaunch> make_kernel_launch(const KernelChoice& choice, const ConvProblem& problem) {
  if (problem.pass == Pass::backward_data) {
    const ConvProblem runs = backward_data_problem(problem);
    std::unique_ptr<KernelLaunch> forward_launch = make_kernel_launch(choice, runs);
    KernelDescription description{forward_launch->implementation(), forward_launch->properties()};
    return make_backward_data_launch(std::move(forward_launch),
                                     as_backward_data_description(std::move(description), runs));
  }
  const std::optional<ConvProblem> forward = forward_problem_for(choice.family, problem);
  const LaunchDevice device = current_launch_device(choice, forward.value_or(problem));
  KernelDescription description = describe_kernel(choice, problem, device);
  const FamilyLauncher& launcher = launcher_for(choice.family);
  if (!forward) return launcher.make_launch(choice, problem, device, std::move(description));
  std::unique_ptr<KernelLaunch> forward_launch =
      launcher.make_launch(choice, *forward, device, describe_kernel(choice, *forward, device));
  return make_as_forward_launch(*forward, std::move(forward_launch), std::move(description));
}

std::int64_t launch_device_bytes(const KernelChoice& choice, const ConvProblem& problem, const LaunchDevice& device) {
  if (problem.pass == Pass::backward_data) return launch_device_bytes(choice, backward_data_problem(problem), device);
  if (const std::optional<ConvProblem> forward = forward_problem_for(choice.family, problem))
    return launch_device_bytes(choice, *forward, device) + forward->weight_elements() * std::int64_t{sizeof(float)};
  const auto bytes = launcher_for(choice.family).device_bytes;
  return bytes ? bytes(choice, problem, device) : 0;
}

}  // namespace kbench::gpu::conv
