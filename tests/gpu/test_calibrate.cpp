// `kbench calibrate` on the device: the measured ceilings must be positive and no higher than
// what the device's own attributes allow (a FLOP or byte miscount shows up as a factor of 2), and
// the TF32 peak must be the faster of the two tensor-core instructions measured.
#include <doctest/doctest.h>

#include <algorithm>

#include "calibrate/calibration.hpp"
#include "runtime/derived_peaks.hpp"
#include "runtime/device_info.hpp"

using namespace kbench::gpu;

TEST_CASE("calibrate_device measures copy bandwidth, FFMA and TF32 rates within the device's limits") {
  const DeviceInfo info = device_info(0);
  const kbench::DevicePeaks derived = derived_peaks(info);
  const Calibration c = calibrate_device(0);
  const kbench::DevicePeaks& measured = c.peaks;
  MESSAGE(info.name << ": copy " << measured.bandwidth_Bps / 1e12 << " TB/s (theoretical "
                    << derived.bandwidth_Bps / 1e12 << "), FP32 " << measured.fp32_flops / 1e12 << " TFLOP/s (peak "
                    << derived.fp32_flops / 1e12 << "), TF32 mma.sync " << c.tf32_mma_sync_flops / 1e12
                    << " TFLOP/s, wgmma n96 " << c.tf32_wgmma_n96_flops / 1e12 << " and n256 "
                    << c.tf32_wgmma_n256_flops / 1e12 << " TFLOP/s (peak " << derived.tf32_flops / 1e12 << ")");
  CHECK(measured.source == "measured (kbench calibrate)");
  CHECK(measured.name == datasheet_or_derived_peaks(info).name);
  CHECK(measured.sms == info.sms);
  CHECK(measured.bandwidth_Bps > 0.3 * derived.bandwidth_Bps);
  CHECK(measured.bandwidth_Bps < 1.05 * derived.bandwidth_Bps);
  CHECK(measured.fp32_flops > 0.5 * derived.fp32_flops);
  CHECK(measured.fp32_flops < 1.02 * derived.fp32_flops);
  if (info.cc_major < 8) return;
  CHECK(c.tf32_mma_sync_flops > 0.2 * derived.tf32_flops);
  CHECK(c.tf32_mma_sync_flops < 1.02 * derived.tf32_flops);
  if (info.cc_major == 9 && info.cc_minor == 0) {
    CHECK_FALSE(c.wgmma_discarded);
    for (const double rate : {c.tf32_wgmma_n96_flops, c.tf32_wgmma_n256_flops}) {
      CHECK(rate > 0.3 * derived.tf32_flops);
      CHECK(rate < 1.02 * derived.tf32_flops);
    }
    CHECK(c.tf32_wgmma_flops() == std::max(c.tf32_wgmma_n96_flops, c.tf32_wgmma_n256_flops));
  } else {
    CHECK(c.tf32_wgmma_flops() == 0);
  }
  CHECK(measured.tf32_flops == std::max(c.tf32_mma_sync_flops, c.wgmma_discarded ? 0.0 : c.tf32_wgmma_flops()));
}
