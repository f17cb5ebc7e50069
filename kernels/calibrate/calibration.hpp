#pragma once
// `kbench calibrate`: measure a device's ceilings (copy bandwidth, FP32 FFMA rate, TF32, fp16 and
// bf16 tensor rates) and keep them per device UUID, so later runs compute floors against what this very
// card reaches rather than its datasheet.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

#include "roofline/device_peaks.hpp"

namespace kbench::gpu {

// What calibrate_device measured. peaks.tf32_flops is the faster of the TF32 rates (and
// peaks.fp16_tensor_flops, bf16_tensor_flops of theirs): a floor must bound every kernel, whichever
// instruction it uses.
struct Calibration {
  DevicePeaks peaks;                 // source = "measured (kbench calibrate)"
  double tf32_mma_sync_flops = 0;    // 0 before sm_80 (no TF32: peaks.tf32_flops is the FFMA rate)
  double tf32_wgmma_n96_flops = 0;   // m64n96k8, A in registers (kbench's wgmma kernel's form);
  double tf32_wgmma_n256_flops = 0;  // m64n256k8, both operands in shared memory; both 0 where not
                                     // measured (not a compute capability 9.0 device)
  double fp16_mma_sync_flops = 0;    // m16n8k16, fp32 accumulation; 0 before sm_80
  double bf16_mma_sync_flops = 0;
  double fp16_wgmma_flops = 0;       // m64n256k16, both operands in shared memory; 0 where not measured
  double bf16_wgmma_flops = 0;
  bool wgmma_discarded = false;      // a TF32 wgmma rate above the device's theoretical peak (a miscount), not used
  bool half_wgmma_discarded = false;  // the same for an fp16 or bf16 wgmma rate
  // The mean SM clock seen while each rate was timed (0: not told), and the device's maximum: a rate
  // read at a low clock understates the ceiling and inflates every floor computed from it.
  double copy_clock_hz = 0, fp32_clock_hz = 0, tf32_mma_sync_clock_hz = 0, tf32_wgmma_clock_hz = 0;
  double half_mma_sync_clock_hz = 0, half_wgmma_clock_hz = 0;
  double max_clock_hz = 0;

  double tf32_wgmma_flops() const { return std::max(tf32_wgmma_n96_flops, tf32_wgmma_n256_flops); }
};

// Takes a few seconds. Throws CudaError on failure.
Calibration calibrate_device(int device);

// $XDG_CACHE_HOME/kbench, else $HOME/.cache/kbench; throws InputError when neither is set.
std::filesystem::path calibration_directory();
// calibration_directory() / "calibration-<uuid>.json".
std::filesystem::path calibration_path(const std::string& uuid);

// Writes the JSON file (creating the directory) and returns its path; throws std::runtime_error
// naming the path when it cannot be written.
std::filesystem::path save_calibration(const DevicePeaks& peaks, const std::string& uuid);

// The saved peaks for this device, or nullopt when there is no file for `uuid` or it was written
// for a device of another name. Throws InputError naming the file when it is unreadable or
// malformed (delete it, or calibrate again).
std::optional<DevicePeaks> load_calibration(const std::string& name, const std::string& uuid);

}  // namespace kbench::gpu
