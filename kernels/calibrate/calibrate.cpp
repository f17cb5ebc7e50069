#include "calibrate/calibration.hpp"

#include <algorithm>

#include "calibrate/calibrate_kernels.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/derived_peaks.hpp"
#include "runtime/device_info.hpp"

namespace kbench::gpu {

namespace {

constexpr std::int64_t kCopyBufferBytes = std::int64_t{1} << 30;  // per buffer; ~0.5 ms per copy on an H200
constexpr int kCopyRepetitions = 20;
constexpr int kComputeRepetitions = 10;

}  // namespace

DevicePeaks calibrate_device(int device) {
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
  // Before Ampere there is no TF32: a tf32 request runs FP32 arithmetic.
  peaks.tf32_flops = info.cc_major >= 8 ? measure_tf32_mma_rate(kComputeRepetitions).best : ffma.best;
  peaks.sms = info.sms;
  peaks.l2_bytes = static_cast<double>(info.l2_bytes);
  return peaks;
}

}  // namespace kbench::gpu
