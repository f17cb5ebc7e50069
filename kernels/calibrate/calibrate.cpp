#include "calibrate/calibration.hpp"

#include <algorithm>

#include "calibrate/calibrate_kernels.hpp"
#include "core/types.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/derived_peaks.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

constexpr std::int64_t kCopyBufferBytes = std::int64_t{1} << 30;  // per buffer; ~0.5 ms per copy on an H200
constexpr int kCopyRepetitions = 20;
constexpr int kComputeRepetitions = 10;
// Clocks may boost a little past the maximum the device reports; more than this is a measuring error.
constexpr double kTheoreticalSlack = 1.02;

}  // namespace

Calibration calibrate_device(int device) {
  KBENCH_CUDA_CHECK(cudaSetDevice(device));
  const DeviceInfo info = device_info(device);

  // Two buffers; leave most of the free memory alone on a busy card. Multiple of 16 bytes.
  const std::int64_t copy_bytes = std::min(kCopyBufferBytes, info.free_bytes / 4) / 16 * 16;
  const RateMeasurement copy = measure_copy_bandwidth(copy_bytes, kCopyRepetitions);
  const RateMeasurement ffma = measure_fp32_ffma_rate(kComputeRepetitions);

  // The name and key stay those of the datasheet row (or the derived ones), so --target and
  // reports still recognise the card; only the rates and the source change.
  DevicePeaks peaks = datasheet_or_derived_peaks(info);
  peaks.source = "measured (kbench calibrate)";
  peaks.bandwidth_Bps = copy.best;
  peaks.fp32_flops = ffma.best;
  peaks.sms = info.sms;
  peaks.l2_bytes = static_cast<double>(info.l2_bytes);

  Calibration c;
  c.max_clock_hz = static_cast<double>(info.sm_clock_khz) * 1e3;
  c.copy_clock_hz = copy.clock_hz;
  c.fp32_clock_hz = ffma.clock_hz;
  // Before Ampere there is no TF32 (nor bf16 mma): a tf32 request runs FP32 arithmetic.
  if (info.cc_major >= 8) {
    const RateMeasurement mma = measure_tf32_mma_rate(kComputeRepetitions);
    c.tf32_mma_sync_flops = mma.best;
    c.tf32_mma_sync_clock_hz = mma.clock_hz;
    const RateMeasurement fp16 = measure_fp16_mma_rate(kComputeRepetitions);
    const RateMeasurement bf16 = measure_bf16_mma_rate(kComputeRepetitions);
    c.fp16_mma_sync_flops = fp16.best;
    c.bf16_mma_sync_flops = bf16.best;
    c.half_mma_sync_clock_hz = std::min(fp16.clock_hz, bf16.clock_hz);
  }
  // wgmma (sm_90a) is Hopper's path to its full tensor rates; mma.sync reaches part of them there.
  if (info.cc_major == 9 && info.cc_minor == 0) {
    const WgmmaRates wgmma = measure_wgmma_rates(kComputeRepetitions);
    c.tf32_wgmma_n96_flops = wgmma.registers_a_n96.best;
    c.tf32_wgmma_n256_flops = wgmma.shared_a_n256.best;
    c.tf32_wgmma_clock_hz = std::min(wgmma.registers_a_n96.clock_hz, wgmma.shared_a_n256.clock_hz);
    c.fp16_wgmma_flops = wgmma.fp16_n256.best;
    c.bf16_wgmma_flops = wgmma.bf16_n256.best;
    c.half_wgmma_clock_hz = std::min(wgmma.fp16_n256.clock_hz, wgmma.bf16_n256.clock_hz);
    // Faster than the SMs x tensor rate per clock x maximum clock allows: a miscount, which must
    // not lower every floor computed from it.
    const DevicePeaks theoretical = derived_peaks(info);
    c.wgmma_discarded = c.tf32_wgmma_flops() > kTheoreticalSlack * theoretical.tf32_flops;
    c.half_wgmma_discarded =
        std::max(c.fp16_wgmma_flops, c.bf16_wgmma_flops) > kTheoreticalSlack * theoretical.half_tensor_flops(DType::fp16);
  }
  const double wgmma = c.wgmma_discarded ? 0 : c.tf32_wgmma_flops();
  peaks.tf32_flops = info.cc_major >= 8 ? std::max(c.tf32_mma_sync_flops, wgmma) : ffma.best;
  // Measured half rates where mma.sync has them (sm_80 on); before, the datasheet's (or unknown) stay.
  if (info.cc_major >= 8) {
    const double fp16_wgmma = c.half_wgmma_discarded ? 0 : c.fp16_wgmma_flops;
    const double bf16_wgmma = c.half_wgmma_discarded ? 0 : c.bf16_wgmma_flops;
    peaks.fp16_tensor_flops = std::max(c.fp16_mma_sync_flops, fp16_wgmma);
    peaks.bf16_tensor_flops = std::max(c.bf16_mma_sync_flops, bf16_wgmma);
  }
  c.peaks = peaks;
  return c;
}

}  // namespace kbench::gpu
