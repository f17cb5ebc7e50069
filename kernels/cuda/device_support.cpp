#include "cuda/device_support.hpp"

#include <exception>
#include <optional>

#include <fmt/format.h>

#include "cuda/registry.hpp"
#include "cuda/selection.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

// `need` asked of `device`: yes, or no naming what it needs and what the device is, or why the
// device could not be read.
Support device_meets(const conv::ArchitectureNeed& need, int device) {
  if (Support s = cuda_status(); !s) return s;
  try {
    const DeviceInfo info = device_info(device);
    return conv::meets_need(need, info.cc_major, info.cc_minor, fmt::format("device {}", device));
  } catch (const std::exception& e) {
    return Support::no(fmt::format("{}: cannot read device {}: {}", need.feature, device, e.what()));
  }
}

}  // namespace

Support wgmma_device_support(int device) { return device_meets(conv::kWgmmaNeed, device); }

Support bulk_copy_device_support(int device) { return device_meets(conv::kBulkCopyNeed, device); }

Support choice_runs_on(const conv::KernelChoice& choice, int device) {
  const std::optional<conv::ArchitectureNeed> need = conv::architecture_need(choice);
  return need ? device_meets(*need, device) : Support::yes();
}

Support choice_differs_on(const conv::KernelChoice& choice, const ConvProblem& problem, int device) {
  if (choice.split != conv::igemm::SplitK::none) return Support::yes();
  if (Support s = cuda_status(); !s) return s;
  try {
    return conv::split_variant_on_device(choice, problem, device_info(device).sms);
  } catch (const std::exception& e) {
    return Support::no(fmt::format("no_split_k: cannot read device {}: {}", device, e.what()));
  }
}

}  // namespace kbench::gpu
