#include "cuda/device_support.hpp"

#include <exception>
#include <optional>

#include <fmt/format.h>

#include "cuda/device_requirements.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

// The requirement of `choice` (device_requirements.hpp) asked of `device`: yes, or no naming what it
// needs and what the device is, or why the device could not be read.
Support device_meets_need(const conv::KernelChoice& choice, int device) {
  const std::optional<conv::ArchitectureNeed> need = conv::architecture_need(choice);
  if (!need) return Support::yes();
  if (Support s = cuda_status(); !s) return s;
  try {
    const DeviceInfo info = device_info(device);
    return conv::choice_runs_on_capability(choice, info.cc_major, info.cc_minor, fmt::format("device {}", device));
  } catch (const std::exception& e) {
    return Support::no(fmt::format("{}: cannot read device {}: {}", need->feature, device, e.what()));
  }
}

}  // namespace

Support wgmma_device_support(int device) {
  return device_meets_need(conv::KernelChoice{conv::Family::implicit_gemm_tf32, std::nullopt, std::nullopt,
                                              std::nullopt, std::nullopt, conv::igemm::MmaKind::wgmma},
                           device);
}

Support bulk_copy_device_support(int device) {
  return device_meets_need(
      conv::KernelChoice{conv::Family::depthwise2d, std::nullopt, std::nullopt, conv::depthwise::StoreMode::bulk},
      device);
}

Support choice_runs_on(const conv::KernelChoice& choice, int device) { return device_meets_need(choice, device); }

}  // namespace kbench::gpu
