#include "runtime/derived_peaks.hpp"

#include <cctype>

namespace kbench::gpu {

ArchRates arch_rates(int cc_major, int cc_minor) {
  // Volta and Turing: 64 FP32 lanes, tensor cores without TF32.
  if (cc_major == 7) return {64, 0, true};
  // A100: 64 lanes; 1024 dense TF32 FLOPs/clk/SM (156 TFLOP/s = 108 SMs x 1.41 GHz x 1024).
  if (cc_major == 8 && cc_minor == 0) return {64, 1024, true};
  // GA10x, AD10x, Orin: 128 lanes; 256 dense TF32 FLOPs/clk/SM (RTX 4090: 128 x 2.52 GHz x 256 = 82.6 TFLOP/s).
  if (cc_major == 8) return {128, 256, true};
  // H100/H200: 128 lanes; 2048 dense TF32 FLOPs/clk/SM (494.7 TFLOP/s = 132 x 1.83 GHz x 2048).
  if (cc_major == 9) return {128, 2048, true};
  // B200-class datacenter Blackwell: twice Hopper's tensor rate per SM.
  if (cc_major == 10) return {128, 4096, true};
  // Consumer Blackwell: GeForce-class tensor rate (RTX 5090: 170 x 2.41 GHz x 256 = 104.8 TFLOP/s).
  if (cc_major == 12) return {128, 256, true};
  // Unknown: assume the fastest known rates, so that a floor computed from them stays a lower bound.
  return {128, 4096, false};
}

namespace {

std::string key_from_name(const std::string& name) {
  std::string key;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      key += static_cast<char>(std::tolower(u));
    } else if (!key.empty() && key.back() != '-') {
      key += '-';
    }
  }
  while (!key.empty() && key.back() == '-') key.pop_back();
  return key;
}

}  // namespace

DevicePeaks derived_peaks(const DeviceInfo& info) {
  const ArchRates rates = arch_rates(info.cc_major, info.cc_minor);
  const double clock_hz = static_cast<double>(info.sm_clock_khz) * 1e3;
  DevicePeaks peaks;
  peaks.name = info.name;
  peaks.key = key_from_name(info.name);
  peaks.source = rates.known
                     ? "derived from device attributes"
                     : "derived from device attributes (unknown architecture: fastest known per-SM rates assumed)";
  peaks.bandwidth_Bps = info.theoretical_bandwidth_Bps;
  peaks.fp32_flops = info.sms * rates.fp32_lanes * 2.0 * clock_hz;
  peaks.tf32_flops =
      rates.tf32_flops_per_clock > 0 ? info.sms * rates.tf32_flops_per_clock * clock_hz : peaks.fp32_flops;
  peaks.sms = info.sms;
  peaks.l2_bytes = static_cast<double>(info.l2_bytes);
  return peaks;
}

DevicePeaks datasheet_or_derived_peaks(const DeviceInfo& info) {
  if (auto known = find_device(info.name)) {
    if (known->sms == 0) known->sms = info.sms;
    if (known->l2_bytes == 0) known->l2_bytes = static_cast<double>(info.l2_bytes);
    return *known;
  }
  return derived_peaks(info);
}

}  // namespace kbench::gpu
