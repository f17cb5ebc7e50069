#pragma once
// Peak rates for a discovered device: the datasheet row when kbench's table knows the device's
// name, else figures derived from its attributes (clock, SMs, memory clock and bus width).
#include "roofline/device_peaks.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

// Per-SM, per-clock rates of an architecture, as NVIDIA's whitepapers give them.
struct ArchRates {
  int fp32_lanes = 0;            // FP32 FMA lanes per SM (an FMA is 2 FLOPs)
  int tf32_flops_per_clock = 0;  // dense TF32 tensor FLOPs per SM per clock (0: no TF32 tensor cores)
  bool known = false;            // false: a guess for an architecture the table does not list
};

ArchRates arch_rates(int cc_major, int cc_minor);

// source "derived from device attributes": bandwidth = 2 x memory clock x bus width / 8,
// FP32 = SMs x lanes x 2 x max clock, TF32 = SMs x tensor FLOPs per clock x max clock
// (FP32 rate where the architecture has no TF32 tensor cores).
DevicePeaks derived_peaks(const DeviceInfo& info);

// find_device(info.name) when the table knows it (source "datasheet"), else derived_peaks(info).
DevicePeaks datasheet_or_derived_peaks(const DeviceInfo& info);

}  // namespace kbench::gpu
