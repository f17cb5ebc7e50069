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

#include "backend/backend.hpp"
#include "cuda/kernel_selection.hpp"

namespace kbench::gpu::conv {

struct ArchitectureNeed {
  std::string_view feature;  // "wgmma"
  std::string_view needs;    // "a compute capability 9.0 device (its kernel is built for sm_90a)"
  bool (*accepts)(int major, int minor);
};

// wgmma's kernel is built for sm_90a, whose image loads on compute capability 9.0 devices only.
inline constexpr ArchitectureNeed kWgmmaNeed{"wgmma", "a compute capability 9.0 device (its kernel is built for sm_90a)",
                                             [](int major, int minor) { return major == 9 && minor == 0; }};
inline constexpr ArchitectureNeed kBulkCopyNeed{"bulk copies (cp.async.bulk)", "compute capability 9.0 or later",
                                                [](int major, int) { return major >= 9; }};

// What the choice's instructions need; nullopt when any device this build targets runs it.
inline std::optional<ArchitectureNeed> architecture_need(const KernelChoice& choice) {
  if (choice.mma == igemm::MmaKind::wgmma) return kWgmmaNeed;
  if (choice.stores && depthwise::is_bulk(*choice.stores)) return kBulkCopyNeed;
  return std::nullopt;
}

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
