#pragma once
// Which CUDA devices this machine has and what they are, read from the runtime. Every function
// here is safe to call on a machine without a driver or a GPU: cuda_status() says so with the
// runtime's own words instead of throwing or aborting.
#include <cstdint>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

struct DeviceInfo {
  int index = 0;
  std::string name;  // as the runtime reports it, e.g. "NVIDIA H200"
  std::string uuid;  // as nvidia-smi prints it, e.g. "GPU-1a2b3c4d-..."
  int cc_major = 0;
  int cc_minor = 0;
  int sms = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t memory_bytes = 0;  // total device memory
  std::int64_t free_bytes = 0;    // free when the info was read
  std::int64_t sm_clock_khz = 0;  // maximum (boost) SM clock
  std::int64_t memory_clock_khz = 0;
  int bus_width_bits = 0;
  double theoretical_bandwidth_Bps = 0;  // 2 (double data rate) x memory clock x bus width / 8
};

// yes when at least one device is usable; else no with why: "no NVIDIA driver on this machine (...)",
// "the NVIDIA driver is too old: it supports CUDA 12.2, and this kbench was built with CUDA 13.0", or
// "no CUDA device found: <runtime message> (...)".
// The answer is read once per process (devices do not come and go while kbench runs).
Support cuda_status();

// no, naming the fault, once this process met a sticky CUDA error (a kernel fault: the context is
// unusable from then on); yes before. Backends answer it before anything else in available().
Support context_usable(const ContextFaultLog& log = context_fault_log());

// Every device the runtime sees; empty when cuda_status() is not ok.
std::vector<DeviceInfo> list_devices();

// One device; throws CudaError for an index the runtime rejects.
DeviceInfo device_info(int device);

// no("needs 14.3 GB of device memory, 12.1 GB free on device 0 (of 80.0 GB)") when `bytes_needed` exceeds the
// free memory now (cudaMemGetInfo; the decision is core/memory_budget.hpp's device_memory_fits).
Support fits_in_device_memory(std::int64_t bytes_needed, int device);

// "14.3 GB", "96.0 MB", "512 bytes" (decimal units, as the reports print sizes).
std::string format_bytes(std::int64_t bytes);

}  // namespace kbench::gpu
