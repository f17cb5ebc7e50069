#include "gpu_environment.hpp"

#include <fmt/format.h>

#include "reference/reference_backend.hpp"
#include "report/format.hpp"
#include "plugin/plugin_backend.hpp"
#include "torch/module_backend.hpp"
#include "torch/torch_backend.hpp"

#if defined(KBENCH_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "calibrate/calibration.hpp"
#include "cuda/cuda_backend.hpp"
#include "runtime/derived_peaks.hpp"
#include "runtime/device_info.hpp"
#include "runtime/sm_clock_probe.hpp"
#if defined(KBENCH_HAVE_CUDNN)
#include <cudnn.h>

#include "cudnn/cudnn_backend.hpp"
#endif
#endif

namespace kbench::cli {

#if defined(KBENCH_HAVE_CUDA)

namespace {

// The stored calibration, or nothing; `problem` says why a file that exists could not be used.
std::optional<DevicePeaks> loaded_calibration(const gpu::DeviceInfo& d, std::string& problem) {
  try {
    return gpu::load_calibration(d.name, d.uuid);
  } catch (const std::exception& e) {
    problem = e.what();
    return std::nullopt;
  }
}

std::string clock_text(double hz) {
  return hz > 0 ? fmt::format("{:.0f} MHz", hz / 1e6) : std::string("an unknown clock");
}

}  // namespace

GpuEnvironment detect_gpu(int device) {
  GpuEnvironment env;
  const Support status = gpu::cuda_status();
  if (!status) {
    env.description = status.reason;
    return env;
  }
  gpu::DeviceInfo info;
  try {
    info = gpu::device_info(device);
  } catch (const std::exception& e) {
    env.description = fmt::format("CUDA device {} unusable: {}", device, e.what());
    return env;
  }
  env.present = true;
  env.description = fmt::format("{} (device {}, sm_{}{}, {} SMs, {} memory, {})", info.name, info.index, info.cc_major,
                                info.cc_minor, info.sms, gpu::format_bytes(info.memory_bytes), info.uuid);
  env.datasheet = gpu::datasheet_or_derived_peaks(info);
  env.plan_device =
      PlanDevice{fmt::format("{} (device {})", info.name, info.index), info.cc_major, info.cc_minor, info.sms, true};
  // A damaged calibration file is no reason to call a working device unusable: its floors fall back
  // to the datasheet (the results' peaks say so), and the user is told which file to fix.
  env.measured = loaded_calibration(info, env.calibration_problem);
  if (!env.calibration_problem.empty())
    fmt::print(stderr, "kbench: warning: {}; floors use the datasheet peaks instead\n", env.calibration_problem);
  return env;
}

void register_backends(Registry& registry, const std::string& python) {
  registry.add(make_reference_backend());
  registry.add(gpu::make_cuda_backend());
#if defined(KBENCH_HAVE_CUDNN)
  registry.add(gpu::make_cudnn_backend());
#endif
  const auto torch = std::make_shared<const torch::EmbeddedTorch>(python);  // one interpreter probe for both
  registry.add(torch::make_torch_backend(torch));
  registry.add(torch::make_module_backend(torch));
  registry.add(plugin::make_plugin_backend());
}

std::vector<std::pair<std::string, std::string>> build_and_device_info() {
  std::vector<std::pair<std::string, std::string>> lines = {
      {"kbench", KBENCH_VERSION},
      {"compiler", fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__)},
      {"CUDA (built with)", fmt::format("{}.{}", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10)},
  };
  int driver = 0;
  lines.emplace_back("CUDA driver", cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0
                                        ? fmt::format("{}.{}", driver / 1000, driver % 1000 / 10)
                                        : std::string("none"));
#if defined(KBENCH_HAVE_CUDNN)
  lines.emplace_back("cuDNN (built with)", fmt::format("{}.{}.{}", CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL));
  const std::size_t loaded = cudnnGetVersion();
  lines.emplace_back("cuDNN (loaded)", fmt::format("{}.{}.{}", loaded / 10000, loaded % 10000 / 100, loaded % 100));
  lines.emplace_back("cuDNN graph API", gpu::cudnn_graph_api_status());
#else
  lines.emplace_back("cuDNN", "not in this build");
#endif
  const Support status = gpu::cuda_status();
  if (!status) {
    lines.emplace_back("devices", status.reason);
    return lines;
  }
  for (const auto& d : gpu::list_devices()) {
    const std::string key = fmt::format("device {}", d.index);
    lines.emplace_back(key, fmt::format("{} (sm_{}{}), {}", d.name, d.cc_major, d.cc_minor, d.uuid));
    lines.emplace_back("  SMs / L2", fmt::format("{} / {}", d.sms, gpu::format_bytes(d.l2_bytes)));
    lines.emplace_back("  memory",
                       fmt::format("{} ({} free)", gpu::format_bytes(d.memory_bytes), gpu::format_bytes(d.free_bytes)));
    lines.emplace_back("  clocks", fmt::format("SM {} MHz, memory {} MHz, bus {} bits", d.sm_clock_khz / 1000,
                                               d.memory_clock_khz / 1000, d.bus_width_bits));
    lines.emplace_back("  bandwidth (theory)", report::format_bandwidth(d.theoretical_bandwidth_Bps));
    const DevicePeaks peaks = gpu::datasheet_or_derived_peaks(d);
    lines.emplace_back(
        "  peaks", fmt::format("{} ({}): {}, FP32 {}, TF32 {}", peaks.name, peaks.source,
                               report::format_bandwidth(peaks.bandwidth_Bps),
                               report::format_flop_rate(peaks.fp32_flops), report::format_flop_rate(peaks.tf32_flops)));
    std::string calibration_problem;
    if (const auto measured = loaded_calibration(d, calibration_problem))
      lines.emplace_back(
          "  measured",
          fmt::format("{}, FP32 {}, TF32 {}", report::format_bandwidth(measured->bandwidth_Bps),
                      report::format_flop_rate(measured->fp32_flops), report::format_flop_rate(measured->tf32_flops)));
    else if (!calibration_problem.empty())
      lines.emplace_back("  measured", "unusable: " + calibration_problem);
  }
  return lines;
}

int calibrate_and_store(int device) {
  const Support status = gpu::cuda_status();
  if (!status) {
    fmt::print(stderr, "kbench calibrate: {}\n", status.reason);
    return 1;
  }
  const gpu::DeviceInfo info = gpu::device_info(device);
  const gpu::Calibration calibration = gpu::calibrate_device(device);
  const DevicePeaks& measured = calibration.peaks;
  const std::string where = gpu::save_calibration(measured, info.uuid);
  const DevicePeaks datasheet = gpu::datasheet_or_derived_peaks(info);
  fmt::print("{} ({}), maximum SM clock {}\n", info.name, info.uuid, clock_text(calibration.max_clock_hz));
  fmt::print("  copy bandwidth  {:>14}  (datasheet {}; at {})\n", report::format_bandwidth(measured.bandwidth_Bps),
             report::format_bandwidth(datasheet.bandwidth_Bps), clock_text(calibration.copy_clock_hz));
  fmt::print("  FP32 FFMA       {:>14}  (datasheet {}; at {})\n", report::format_flop_rate(measured.fp32_flops),
             report::format_flop_rate(datasheet.fp32_flops), clock_text(calibration.fp32_clock_hz));
  fmt::print("  TF32            {:>14}  (datasheet {}; the fastest of:)\n",
             report::format_flop_rate(measured.tf32_flops), report::format_flop_rate(datasheet.tf32_flops));
  fmt::print("    mma.sync      {:>14}{}\n",
             calibration.tf32_mma_sync_flops > 0 ? report::format_flop_rate(calibration.tf32_mma_sync_flops)
                                                 : std::string("no TF32 before compute capability 8.0"),
             calibration.tf32_mma_sync_flops > 0 ? "  (at " + clock_text(calibration.tf32_mma_sync_clock_hz) + ")"
                                                 : std::string());
  std::string wgmma = "not measured (compute capability 9.0 only)";
  if (calibration.tf32_wgmma_flops() > 0)
    wgmma = fmt::format("{}  (m64n96k8, A in registers {}; m64n256k8, A and B in shared memory {}){}",
                        report::format_flop_rate(calibration.tf32_wgmma_flops()),
                        report::format_flop_rate(calibration.tf32_wgmma_n96_flops),
                        report::format_flop_rate(calibration.tf32_wgmma_n256_flops),
                        calibration.wgmma_discarded ? "; discarded: above the device's theoretical peak" : "");
  if (calibration.tf32_wgmma_flops() > 0) wgmma += "  (at " + clock_text(calibration.tf32_wgmma_clock_hz) + ")";
  fmt::print("    wgmma         {:>14}\n", wgmma);
  for (const DType dtype : {DType::fp16, DType::bf16}) {
    const bool bf16 = dtype == DType::bf16;
    const double mma = bf16 ? calibration.bf16_mma_sync_flops : calibration.fp16_mma_sync_flops;
    const double wgmma_rate = bf16 ? calibration.bf16_wgmma_flops : calibration.fp16_wgmma_flops;
    fmt::print("  {} tensor     {:>14}  (datasheet {}; the fastest of:)\n", bf16 ? "BF16" : "FP16",
               report::format_flop_rate(measured.half_tensor_flops(dtype)),
               report::format_flop_rate(datasheet.half_tensor_flops(dtype)));
    fmt::print("    mma.sync      {:>14}{}\n",
               mma > 0 ? report::format_flop_rate(mma) : std::string("not measured before compute capability 8.0"),
               mma > 0 ? "  (at " + clock_text(calibration.half_mma_sync_clock_hz) + ")" : std::string());
    fmt::print("    wgmma         {:>14}\n",
               wgmma_rate > 0 ? fmt::format("{}  (m64n256k16, A and B in shared memory){}  (at {})",
                                            report::format_flop_rate(wgmma_rate),
                                            calibration.half_wgmma_discarded
                                                ? "; discarded: above the device's theoretical peak"
                                                : "",
                                            clock_text(calibration.half_wgmma_clock_hz))
                              : std::string("not measured (compute capability 9.0 only)"));
  }
  fmt::print("  fp32 floors use {} ({})\n", report::format_flop_rate(measured.fp32_accurate_flops()),
             to_string(measured.compute_units_for(MathMode::fp32)));
  fmt::print("stored in {}\n", where);
  for (const double clock : {calibration.copy_clock_hz, calibration.fp32_clock_hz, calibration.tf32_mma_sync_clock_hz,
                             calibration.tf32_wgmma_clock_hz, calibration.half_mma_sync_clock_hz,
                             calibration.half_wgmma_clock_hz}) {
    if (clock > 0 && clock < gpu::SmClockProbe::kThrottleFraction * calibration.max_clock_hz) {
      fmt::print(stderr,
                 "kbench calibrate: warning: a rate was measured at {} (below {:.0f}% of the maximum {}): the GPU was "
                 "throttled or busy, and the stored ceilings may be low; calibrate again on an idle GPU\n",
                 clock_text(clock), gpu::SmClockProbe::kThrottleFraction * 100, clock_text(calibration.max_clock_hz));
      break;
    }
  }
  return 0;
}

std::vector<int> list_device_indices(std::string& why_none) {
  const Support status = gpu::cuda_status();
  if (!status) {
    why_none = status.reason;
    return {};
  }
  std::vector<int> indices;
  for (const auto& d : gpu::list_devices()) indices.push_back(d.index);
  if (indices.empty()) why_none = "the CUDA runtime lists no device";
  return indices;
}

#else  // built without CUDA

std::vector<int> list_device_indices(std::string& why_none) {
  why_none = "this build has no CUDA (KBENCH_ENABLE_CUDA=OFF or no nvcc)";
  return {};
}

GpuEnvironment detect_gpu(int) {
  GpuEnvironment env;
  env.description = "no CUDA device found: this build has no CUDA (KBENCH_ENABLE_CUDA=OFF or no nvcc)";
  return env;
}

void register_backends(Registry& registry, const std::string& python) {
  registry.add(make_reference_backend());
  const auto torch = std::make_shared<const torch::EmbeddedTorch>(python);  // one interpreter probe for both
  registry.add(torch::make_torch_backend(torch));
  registry.add(torch::make_module_backend(torch));
  registry.add(plugin::make_plugin_backend());
}

std::vector<std::pair<std::string, std::string>> build_and_device_info() {
  return {{"kbench", KBENCH_VERSION},
          {"compiler", fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__)},
          {"CUDA", "not in this build"},
          {"devices", "none (no CUDA in this build)"}};
}

int calibrate_and_store(int) {
  fmt::print(stderr, "kbench calibrate: this build has no CUDA support\n");
  return 1;
}

#endif

}  // namespace kbench::cli
