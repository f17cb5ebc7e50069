#include "roofline/device_peaks.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/input_file.hpp"

namespace kbench {

namespace {

constexpr double GB = 1e9;
constexpr double TFLOP = 1e12;
constexpr double MB = 1e6;

struct KnownDevice {
  DevicePeaks peaks;
  std::vector<std::string> cuda_names;  // as cudaGetDeviceProperties reports them
};

// Half-precision rates, dense, TFLOP/s: fp16 and bf16 tensor cores (fp32 accumulation) and fp16 without
// them. NVIDIA's datasheets give the tensor rates with sparsity (halved here); the non-tensor rate is from
// the architecture whitepapers (Hopper: 2 x FFMA; A100: 4 x FFMA).
struct HalfRates {
  double tensor;  // fp16 and bf16 alike
  double vector;  // fp16, HFMA2
};

DevicePeaks with_half(DevicePeaks peaks, HalfRates rates) {
  peaks.fp16_tensor_flops = peaks.bf16_tensor_flops = rates.tensor * TFLOP;
  peaks.fp16_flops = rates.vector * TFLOP;
  return peaks;
}

// Dense datasheet figures (no sparsity); see ../shared/reference/kernelbench-conv.md. H100 SXM5 and H200
// SXM: 989.4 TFLOP/s fp16/bf16 tensor (1979 sparse), 133.8 fp16; H100 PCIe: 756 (1513 sparse), 102.4;
// A100: 312 (624 sparse), 78.
const std::vector<KnownDevice>& table() {
  static const std::vector<KnownDevice> devices = {
      {with_half({"NVIDIA H100 SXM5 80GB", "h100-sxm", "datasheet", 3.35e3 * GB, 67 * TFLOP, 494.7 * TFLOP, 132,
                  50 * MB, 9, 0},
                 {989.4, 133.8}),
       {"NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"}},
      {with_half({"NVIDIA H100 PCIe 80GB", "h100-pcie", "datasheet", 2.0e3 * GB, 51.2 * TFLOP, 378 * TFLOP, 114,
                  50 * MB, 9, 0},
                 {756, 102.4}),
       {"NVIDIA H100 PCIe"}},
      {with_half(
           {"NVIDIA H200 SXM 141GB", "h200", "datasheet", 4.8e3 * GB, 67 * TFLOP, 494.7 * TFLOP, 132, 60 * MB, 9, 0},
           {989.4, 133.8}),
       {"NVIDIA H200", "NVIDIA H200 NVL"}},
      {with_half({"NVIDIA A100 SXM4 80GB", "a100-80gb", "datasheet", 2.039e3 * GB, 19.5 * TFLOP, 156 * TFLOP, 108,
                  40 * MB, 8, 0},
                 {312, 78}),
       {"NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB PCIe"}},
      {with_half(
           {"NVIDIA A100 40GB", "a100-40gb", "datasheet", 1.555e3 * GB, 19.5 * TFLOP, 156 * TFLOP, 108, 40 * MB, 8, 0},
           {312, 78}),
       {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-PCIE-40GB"}},
  };
  return devices;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

double positive_number(const nlohmann::json& doc, const char* key, const std::string& path) {
  if (!doc.contains(key)) throw InputError(fmt::format("{}: {}: missing; expected a positive number", path, key));
  const auto& value = doc.at(key);
  // nlohmann reads 1e999 as infinity: a floor against an infinite peak would be zero.
  if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>()))
    throw InputError(fmt::format("{}: {}: expected a finite positive number, got {}", path, key, value.dump()));
  return value.get<double>();
}

}  // namespace

std::string_view to_string(ComputeUnits units) {
  switch (units) {
    case ComputeUnits::ffma: return "FFMA";
    case ComputeUnits::split_tf32: return "3xTF32";
    case ComputeUnits::tf32: return "TF32";
    case ComputeUnits::fp16_tensor: return "FP16";
    case ComputeUnits::bf16_tensor: return "BF16";
  }
  return "FFMA";
}

std::optional<ComputeUnits> parse_compute_units(std::string_view text) {
  for (ComputeUnits units : {ComputeUnits::ffma, ComputeUnits::split_tf32, ComputeUnits::tf32,
                             ComputeUnits::fp16_tensor, ComputeUnits::bf16_tensor})
    if (text == to_string(units)) return units;
  return std::nullopt;
}

double DevicePeaks::half_tensor_flops(DType dtype) const {
  const double given = dtype == DType::bf16 ? bf16_tensor_flops : fp16_tensor_flops;
  return given > 0 ? given : kHalfPerTf32 * tf32_flops;
}

double DevicePeaks::flops_for(MathMode math, DType dtype) const {
  if (dtype != DType::fp32) return half_tensor_flops(dtype);
  return math == MathMode::tf32 ? tf32_flops : fp32_accurate_flops();
}

ComputeUnits DevicePeaks::compute_units_for(MathMode math, DType dtype) const {
  if (dtype == DType::fp16) return ComputeUnits::fp16_tensor;
  if (dtype == DType::bf16) return ComputeUnits::bf16_tensor;
  if (math == MathMode::tf32) return ComputeUnits::tf32;
  return fp32_accurate_flops() > fp32_flops ? ComputeUnits::split_tf32 : ComputeUnits::ffma;
}

const std::vector<DevicePeaks>& known_devices() {
  static const std::vector<DevicePeaks> peaks = [] {
    std::vector<DevicePeaks> out;
    for (const auto& device : table()) out.push_back(device.peaks);
    return out;
  }();
  return peaks;
}

std::optional<DevicePeaks> find_device(std::string_view key_or_name) {
  const std::string wanted = lower(key_or_name);
  for (const auto& device : table()) {
    if (lower(device.peaks.key) == wanted || lower(device.peaks.name) == wanted) return device.peaks;
    for (const auto& name : device.cuda_names)
      if (lower(name) == wanted) return device.peaks;
  }
  return std::nullopt;
}

DevicePeaks load_peaks_file(const std::string& path) {
  const std::string text = io::read_input_file(path, "peaks file", io::kMaxPeaksBytes);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e999
    throw InputError(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  if (!doc.is_object()) throw InputError(fmt::format("{}: expected a JSON object", path));
  for (const auto& [key, value] : doc.items()) {
    static const std::vector<std::string> allowed = {"name",
                                                     "bandwidth_GBps",
                                                     "fp32_TFLOPs",
                                                     "tf32_TFLOPs",
                                                     "fp16_tensor_TFLOPs",
                                                     "bf16_tensor_TFLOPs",
                                                     "fp16_TFLOPs",
                                                     "sms",
                                                     "l2_MB"};
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(
          fmt::format("{}: {}: unknown key; expected one of name, bandwidth_GBps, fp32_TFLOPs, "
                      "tf32_TFLOPs, fp16_tensor_TFLOPs, bf16_tensor_TFLOPs, fp16_TFLOPs, sms, l2_MB",
                      path, key));
    (void)value;
  }
  DevicePeaks peaks;
  if (doc.contains("name") && !doc.at("name").is_string())
    throw InputError(fmt::format("{}: name: expected a string, got {}", path, doc.at("name").dump()));
  peaks.name = doc.value("name", std::string("custom"));
  peaks.key = "file";
  peaks.source = "file:" + path;
  peaks.bandwidth_Bps = positive_number(doc, "bandwidth_GBps", path) * GB;
  peaks.fp32_flops = positive_number(doc, "fp32_TFLOPs", path) * TFLOP;
  peaks.tf32_flops = positive_number(doc, "tf32_TFLOPs", path) * TFLOP;
  // Optional: without them the half rates are derived from TF32 and FFMA (DevicePeaks::half_tensor_flops).
  if (doc.contains("fp16_tensor_TFLOPs"))
    peaks.fp16_tensor_flops = positive_number(doc, "fp16_tensor_TFLOPs", path) * TFLOP;
  if (doc.contains("bf16_tensor_TFLOPs"))
    peaks.bf16_tensor_flops = positive_number(doc, "bf16_tensor_TFLOPs", path) * TFLOP;
  if (doc.contains("fp16_TFLOPs")) peaks.fp16_flops = positive_number(doc, "fp16_TFLOPs", path) * TFLOP;
  if (doc.contains("sms")) {
    const double sms = positive_number(doc, "sms", path);
    if (sms > 100000) throw InputError(fmt::format("{}: sms: expected at most 100000, got {}", path, sms));
    peaks.sms = static_cast<int>(sms);
  }
  if (doc.contains("l2_MB")) peaks.l2_bytes = positive_number(doc, "l2_MB", path) * MB;
  return peaks;
}

}  // namespace kbench
