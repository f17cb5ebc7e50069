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

// What a math mode's peak rate is reached with: for fp32 data FFMA or 3xTF32 (math fp32) and TF32 (math
// tf32); for fp16 and bf16 data the dense tensor-core rate of that type (fp32 accumulation), whatever the math.
enum class ComputeUnits { ffma, split_tf32, tf32, fp16_tensor, bf16_tensor };
// "FFMA", "3xTF32", "TF32", "FP16", "BF16": as reports and the JSON document spell them.
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
  // Half precision, dense (no sparsity), FLOP/s; 0 where unknown (peaks measured or derived before
  // these existed, an older results document, a --peaks file without them): see half_tensor_flops.
  double fp16_tensor_flops = 0;  // fp16 tensor cores, fp32 accumulation
  double bf16_tensor_flops = 0;  // bf16 tensor cores, fp32 accumulation
  double fp16_flops = 0;         // fp16 without tensor cores (HFMA2): what a memory-bound kernel's math runs on

  // On every GPU kbench knows (Ampere, Hopper) the dense fp16 and bf16 tensor rates are twice the TF32
  // rate, and the non-tensor fp16 rate twice FFMA; an unknown figure is taken to be that.
  static constexpr double kHalfPerTf32 = 2;
  double half_tensor_flops(DType dtype) const;
  double fp16_vector_flops() const { return fp16_flops > 0 ? fp16_flops : kHalfPerTf32 * fp32_flops; }

  // fp32 accuracy does not need FFMA: split each operand into a TF32 head and a TF32 tail and add
  // three tensor-core products (head x head, head x tail, tail x head; "3xTF32", CUTLASS's fast
  // fp32), as kbench's own fp32 GEMMs do. So the fastest fp32-accurate rate is the faster of FFMA
  // and a third of the TF32 rate, and an fp32 floor computed from FFMA alone would not be a floor.
  static constexpr double kSplitTf32Products = 3;
  double fp32_accurate_flops() const { return std::max(fp32_flops, tf32_flops / kSplitTf32Products); }

  // The peak a floor at this math mode is computed against, and the units that reach it. For fp16/bf16
  // data the math mode does not matter (math_policy.hpp): the dtype's dense tensor rate.
  double flops_for(MathMode math, DType dtype = DType::fp32) const;
  ComputeUnits compute_units_for(MathMode math, DType dtype = DType::fp32) const;
};

const std::vector<DevicePeaks>& known_devices();
// By key ("h200") or by a device name as CUDA reports it ("NVIDIA H200", "NVIDIA H100 80GB HBM3").
std::optional<DevicePeaks> find_device(std::string_view key_or_name);
// A JSON file {"name":..., "bandwidth_GBps":..., "fp32_TFLOPs":..., "tf32_TFLOPs":...} and optionally
// "fp16_tensor_TFLOPs", "bf16_tensor_TFLOPs", "fp16_TFLOPs", "sms", "l2_MB"; throws InputError.
DevicePeaks load_peaks_file(const std::string& path);

}  // namespace kbench
