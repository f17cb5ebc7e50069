#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calibrate/calibration.hpp"
#include "core/error.hpp"

namespace kbench::gpu {

namespace {

constexpr int kFormatVersion = 1;

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// A UUID becomes part of a file name: keep it to characters that are safe there.
std::string file_safe(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool safe =
        (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    out += safe ? c : '_';
  }
  return out;
}

// Rates must be positive (a floor divides by them); counts and sizes may be 0 (unknown).
double required_number(const nlohmann::json& doc, const char* key, const std::filesystem::path& path, bool positive) {
  const bool ok = doc.contains(key) && doc.at(key).is_number() &&
                  (positive ? doc.at(key).get<double>() > 0 : doc.at(key).get<double>() >= 0);
  if (!ok)
    throw InputError(fmt::format("{}: {}: missing or not a {} number (delete the file or run `kbench calibrate` again)",
                                 path.string(), key, positive ? "positive" : "non-negative"));
  return doc.at(key).get<double>();
}

}  // namespace

std::filesystem::path calibration_directory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kbench";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache" / "kbench";
  throw InputError("cannot place the calibration cache: neither XDG_CACHE_HOME nor HOME is set");
}

std::filesystem::path calibration_path(const std::string& uuid) {
  return calibration_directory() / ("calibration-" + file_safe(uuid) + ".json");
}

std::filesystem::path save_calibration(const DevicePeaks& peaks, const std::string& uuid) {
  const std::filesystem::path path = calibration_path(uuid);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error)
    throw std::runtime_error(
        fmt::format("{}: cannot create directory: {}", path.parent_path().string(), error.message()));
  const nlohmann::json doc = {
      {"format", kFormatVersion},
      {"name", peaks.name},
      {"key", peaks.key},
      {"uuid", uuid},
      {"source", peaks.source},
      {"bandwidth_Bps", peaks.bandwidth_Bps},
      {"fp32_flops", peaks.fp32_flops},
      {"tf32_flops", peaks.tf32_flops},
      {"fp16_tensor_flops", peaks.fp16_tensor_flops},
      {"bf16_tensor_flops", peaks.bf16_tensor_flops},
      {"sms", peaks.sms},
      {"l2_bytes", peaks.l2_bytes},
      {"measured_at", utc_now_iso8601()},
      {"kbench_version", KBENCH_VERSION},
  };
  // Write a sibling and rename it into place, so an interrupted write never leaves half a file.
  const std::filesystem::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary);
    out << doc.dump(2) << '\n';
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write", temporary.string()));
  }
  std::filesystem::rename(temporary, path, error);
  if (error) throw std::runtime_error(fmt::format("{}: cannot replace: {}", path.string(), error.message()));
  return path;
}

std::optional<DevicePeaks> load_calibration(const std::string& name, const std::string& uuid) {
  const std::filesystem::path path = calibration_path(uuid);
  if (!std::filesystem::exists(path)) return std::nullopt;
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open", path.string()));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(
        fmt::format("{}: not valid JSON ({}); delete it or run `kbench calibrate` again", path.string(), e.what()));
  }
  if (!doc.is_object() || doc.value("format", 0) != kFormatVersion)
    throw InputError(
        fmt::format("{}: not a kbench calibration file of format {}; delete it or run `kbench "
                    "calibrate` again",
                    path.string(), kFormatVersion));
  if (doc.value("uuid", std::string()) != uuid || doc.value("name", std::string()) != name) return std::nullopt;

  DevicePeaks peaks;
  peaks.name = name;
  peaks.key = doc.value("key", std::string());
  peaks.source = doc.value("source", std::string("measured (kbench calibrate)"));
  peaks.bandwidth_Bps = required_number(doc, "bandwidth_Bps", path, true);
  peaks.fp32_flops = required_number(doc, "fp32_flops", path, true);
  peaks.tf32_flops = required_number(doc, "tf32_flops", path, true);
  // Files written before kbench measured half rates have none: 0, taken as twice TF32 (device_peaks.hpp).
  if (doc.contains("fp16_tensor_flops")) peaks.fp16_tensor_flops = required_number(doc, "fp16_tensor_flops", path, false);
  if (doc.contains("bf16_tensor_flops")) peaks.bf16_tensor_flops = required_number(doc, "bf16_tensor_flops", path, false);
  peaks.sms = static_cast<int>(required_number(doc, "sms", path, false));
  peaks.l2_bytes = required_number(doc, "l2_bytes", path, false);
  return peaks;
}

}  // namespace kbench::gpu
