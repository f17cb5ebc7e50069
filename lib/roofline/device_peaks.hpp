#pragma once
// Peak rates a floor is computed against: datasheet table, a --peaks override file, or measured
// by `kbench calibrate`. Where a figure comes from is recorded next to it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace kbench {

struct DevicePeaks {
  std::string name;             // e.g. "NVIDIA H200"
  std::string key;              // short id for --target, e.g. "h200"
  std::string source;           // "datasheet", "measured (kbench calibrate)", "file:PATH"
  double bandwidth_Bps = 0;     // device memory bandwidth, bytes/s
  double fp32_flops = 0;        // FFMA rate, FLOP/s
  double tf32_flops = 0;        // dense TF32 tensor rate, FLOP/s
  int sms = 0;
  double l2_bytes = 0;

  double flops_for(MathMode math) const { return math == MathMode::tf32 ? tf32_flops : fp32_flops; }
};

const std::vector<DevicePeaks>& known_devices();
// By key ("h200") or by a device name as CUDA reports it ("NVIDIA H200", "NVIDIA H100 80GB HBM3").
std::optional<DevicePeaks> find_device(std::string_view key_or_name);
// A JSON file {"name":..., "bandwidth_GBps":..., "fp32_TFLOPs":..., "tf32_TFLOPs":...}; throws InputError.
DevicePeaks load_peaks_file(const std::string& path);

}  // namespace kbench
