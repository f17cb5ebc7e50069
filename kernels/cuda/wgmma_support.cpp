#include "cuda/wgmma_support.hpp"

#include <exception>

#include <fmt/format.h>

#include "cuda/kernel_selection.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

Support wgmma_device_support(int device) {
  if (Support s = cuda_status(); !s) return s;
  try {
    const DeviceInfo info = device_info(device);
    if (info.cc_major == 9 && info.cc_minor == 0) return Support::yes();
    return Support::no(fmt::format("wgmma needs a compute capability 9.0 device (its kernel is built for sm_90a); "
                                   "device {} is {}.{}",
                                   device, info.cc_major, info.cc_minor));
  } catch (const std::exception& e) {
    return Support::no(fmt::format("wgmma: cannot read device {}: {}", device, e.what()));
  }
}

Support choice_runs_on(const conv::KernelChoice& choice, int device) {
  if (choice.mma != conv::igemm::MmaKind::wgmma) return Support::yes();
  return wgmma_device_support(device);
}

}  // namespace kbench::gpu
