#pragma once
// Peak rates a floor is computed against: datasheet table, a --peaks override file, or measured
// by `kbench calibrate`. Where a figure comes from is recorded next to it.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace kbench {

// What a math mode's peak rate is reached with.
enum class ComputeUnits { ffma, split_tf32, tf32 };
// "FFMA", "3xTF32", "TF32": as reports and the JSON document spell them.
std::string_view to_string(ComputeUnits units);
std::optional<ComputeUnits> parse_compute_units(std::string_view text);

struct DevicePeaks {
  std::string name;          // e.g. "NVIDIA H200"
  std::string key;           // short id for --target, e.g. "h200"
  std::string source;        // "datasheet", "measured (kbench calibrate)", "file:PATH"
  double bandwidth_Bps = 0;  // device memory bandwidth, bytes/s
  double fp32_flops = 0;     // FFMA rate, FLOP/s
  double tf32_flops = 0;     // dense TF32 tensor rate, FLOP/s
  int sms = 0;
  double l2_bytes = 0;
  int cc_major = 0, cc_minor = 0;  // compute capability (what `kbench plan --target` plans for); 0.0 unknown

  // fp32 accuracy does not need FFMA: split each operand into a TF32 head and a TF32 tail and add
  // three tensor-core products (head x head, head x tail, tail x head; "3xTF32", CUTLASS's fast
  // fp32), as kbench's own fp32 GEMMs do. So the fastest fp32-accurate rate is the faster of FFMA
  // and a third of the TF32 rate, and an fp32 floor computed from FFMA alone would not be a floor.
  static constexpr double kSplitTf32Products = 3;
  double fp32_accurate_flops() const { return std::max(fp32_flops, tf32_flops / kSplitTf32Products); }

  // The peak a floor at this math mode is computed against, and the units that reach it.
  double flops_for(MathMode math) const { return math == MathMode::tf32 ? tf32_flops : fp32_accurate_flops(); }
  ComputeUnits compute_units_for(MathMode math) const;
};

const std::vector<DevicePeaks>& known_devices();
// By key ("h200") or by a device name as CUDA reports it ("NVIDIA H200", "NVIDIA H100 80GB HBM3").
std::optional<DevicePeaks> find_device(std::string_view key_or_name);
// A JSON file {"name":..., "bandwidth_GBps":..., "fp32_TFLOPs":..., "tf32_TFLOPs":...}; throws InputError.
DevicePeaks load_peaks_file(const std::string& path);

}  // namespace kbench
