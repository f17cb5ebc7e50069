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

// Dense datasheet figures (no sparsity); see ../shared/reference/kernelbench-conv.md.
const std::vector<KnownDevice>& table() {
  static const std::vector<KnownDevice> devices = {
      {{"NVIDIA H100 SXM5 80GB", "h100-sxm", "datasheet", 3.35e3 * GB, 67 * TFLOP, 494.7 * TFLOP, 132, 50 * MB, 9, 0},
       {"NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"}},
      {{"NVIDIA H100 PCIe 80GB", "h100-pcie", "datasheet", 2.0e3 * GB, 51.2 * TFLOP, 378 * TFLOP, 114, 50 * MB, 9, 0},
       {"NVIDIA H100 PCIe"}},
      {{"NVIDIA H200 SXM 141GB", "h200", "datasheet", 4.8e3 * GB, 67 * TFLOP, 494.7 * TFLOP, 132, 60 * MB, 9, 0},
       {"NVIDIA H200", "NVIDIA H200 NVL"}},
      {{"NVIDIA A100 SXM4 80GB", "a100-80gb", "datasheet", 2.039e3 * GB, 19.5 * TFLOP, 156 * TFLOP, 108, 40 * MB, 8, 0},
       {"NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB PCIe"}},
      {{"NVIDIA A100 40GB", "a100-40gb", "datasheet", 1.555e3 * GB, 19.5 * TFLOP, 156 * TFLOP, 108, 40 * MB, 8, 0},
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
  }
  return "FFMA";
}

std::optional<ComputeUnits> parse_compute_units(std::string_view text) {
  for (ComputeUnits units : {ComputeUnits::ffma, ComputeUnits::split_tf32, ComputeUnits::tf32})
    if (text == to_string(units)) return units;
  return std::nullopt;
}

ComputeUnits DevicePeaks::compute_units_for(MathMode math) const {
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
    static const std::vector<std::string> allowed = {"name", "bandwidth_GBps", "fp32_TFLOPs", "tf32_TFLOPs",
                                                     "sms",  "l2_MB"};
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(
          fmt::format("{}: {}: unknown key; expected one of name, bandwidth_GBps, fp32_TFLOPs, "
                      "tf32_TFLOPs, sms, l2_MB",
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
  if (doc.contains("sms")) {
    const double sms = positive_number(doc, "sms", path);
    if (sms > 100000) throw InputError(fmt::format("{}: sms: expected at most 100000, got {}", path, sms));
    peaks.sms = static_cast<int>(sms);
  }
  if (doc.contains("l2_MB")) peaks.l2_bytes = positive_number(doc, "l2_MB", path) * MB;
  return peaks;
}

}  // namespace kbench
