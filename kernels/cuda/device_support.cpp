#include "cuda/device_support.hpp"

#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "cuda/kernel_selection.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

// yes when `accepts(major, minor)`; else no, naming what `feature` needs and what the device is.
template <class Accepts>
Support device_capability_support(int device, std::string_view feature, std::string_view needs, Accepts accepts) {
  if (Support s = cuda_status(); !s) return s;
  try {
    const DeviceInfo info = device_info(device);
    if (accepts(info.cc_major, info.cc_minor)) return Support::yes();
    return Support::no(fmt::format("{} needs {}; device {} is {}.{}", feature, needs, device, info.cc_major,
                                   info.cc_minor));
  } catch (const std::exception& e) {
    return Support::no(fmt::format("{}: cannot read device {}: {}", feature, device, e.what()));
  }
}

}  // namespace

Support wgmma_device_support(int device) {
  return device_capability_support(device, "wgmma", "a compute capability 9.0 device (its kernel is built for sm_90a)",
                                   [](int major, int minor) { return major == 9 && minor == 0; });
}

Support bulk_copy_device_support(int device) {
  return device_capability_support(device, "bulk copies (cp.async.bulk)", "compute capability 9.0 or later",
                                   [](int major, int) { return major >= 9; });
}

Support choice_runs_on(const conv::KernelChoice& choice, int device) {
  if (choice.mma == conv::igemm::MmaKind::wgmma) return wgmma_device_support(device);
  if (choice.stores && conv::depthwise::is_bulk(*choice.stores)) return bulk_copy_device_support(device);
  return Support::yes();
}

}  // namespace kbench::gpu
