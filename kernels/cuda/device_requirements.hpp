#pragma once
// What a cuda kernel choice needs of the device's architecture. Every choice runs on any device this
// build targets, except two kinds that use Hopper instructions: the wgmma ones, whose kernel
// (igemm_wgmma.cu) is built for sm_90a alone (an sm_90a image loads on compute capability 9.0
// devices only: H100, H200), and depthwise2d/bulk_copies and /bulk_pipelined, whose bulk copies
// (cp.async.bulk) need compute capability 9.0 or later. Plain C++: the backend asks it of the device
// present (device_support.cpp), `kbench plan` of a --target GPU, the unit tests of both.
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/support.hpp"
#include "cuda/family_table.hpp"

namespace kbench::gpu::conv {

// yes when a device of compute capability major.minor meets `need`; else no, naming what it needs
// and what `device_name` is.
inline Support meets_need(const ArchitectureNeed& need, int major, int minor, std::string_view device_name) {
  if (need.accepts(major, minor)) return Support::yes();
  return Support::no(fmt::format("{} needs {}; {} is {}.{}", need.feature, need.needs, device_name, major, minor));
}

// yes when a device of compute capability major.minor runs the choice; else no, naming what it
// needs and what `device_name` ("device 0", "NVIDIA A100 40GB") is.
inline Support choice_runs_on_capability(const KernelChoice& choice, int major, int minor,
                                         std::string_view device_name) {
  const std::optional<ArchitectureNeed> need = architecture_need(choice);
  return need ? meets_need(*need, major, minor, device_name) : Support::yes();
}

}  // namespace kbench::gpu::conv
