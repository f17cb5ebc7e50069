#include "runtime/device_info.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <fmt/format.h>

#include "core/memory_budget.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace {

int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

std::string format_uuid(const cudaUUID_t& uuid) {
  // nvidia-smi's form: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += fmt::format("{:02x}", static_cast<unsigned char>(uuid.bytes[i]));
  }
  return out;
}

std::string cuda_version_text(int version) { return fmt::format("{}.{}", version / 1000, version % 1000 / 10); }

// Why the runtime found no device, in the user's terms. The runtime answers "CUDA driver version is
// insufficient for CUDA runtime version" also where there is no driver at all, which sends a user to
// upgrade a driver that is not there: the driver library is looked for first, and "too old" is said
// only with both versions in hand.
std::string why_no_device(cudaError_t status) {
  int driver = 0;
  const bool driver_answers = cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0;
  void* libcuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  const char* dl_message = libcuda ? nullptr : dlerror();
  const std::string load_error = dl_message ? dl_message : "";
  if (libcuda) dlclose(libcuda);
  if (!libcuda || !driver_answers)
    return fmt::format("no NVIDIA driver on this machine (libcuda.so.1 cannot be loaded{})",
                       load_error.empty() ? "" : ": " + load_error);
  int runtime = 0;
  (void)cudaRuntimeGetVersion(&runtime);
  if (status == cudaErrorInsufficientDriver && runtime > driver)
    return fmt::format("the NVIDIA driver is too old: it supports CUDA {}, and this kbench was built with CUDA {}",
                       cuda_version_text(driver), cuda_version_text(runtime));
  return fmt::format("no CUDA device found: {} (NVIDIA driver for CUDA {})", cudaGetErrorString(status),
                     cuda_version_text(driver));
}

Support probe_runtime() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: leave no error behind for later checks
    return Support::no(why_no_device(status));
  }
  if (count == 0) return Support::no("no CUDA device found: the runtime reports 0 devices");
  return Support::yes();
}

// cudaMemGetInfo answers for the current device; the caller's current device is restored.
std::int64_t free_memory(int device, std::int64_t* total = nullptr) {
  int previous = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&previous));
  KBENCH_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  const cudaError_t status = cudaMemGetInfo(&free_bytes, &total_bytes);
  KBENCH_CUDA_CHECK(cudaSetDevice(previous));
  KBENCH_CUDA_CHECK(status);
  if (total) *total = static_cast<std::int64_t>(total_bytes);
  return static_cast<std::int64_t>(free_bytes);
}

}  // namespace

Support cuda_status() {
  static const Support status = probe_runtime();
  return status;
}

Support context_usable(const ContextFaultLog& log) {
  const std::optional<std::string> fault = log.first();
  if (!fault) return Support::yes();
  return Support::no(fmt::format(
      "not run: an earlier kernel fault left this process's CUDA context unusable ({}); run each backend or "
      "variant in a process of its own to isolate it, as scripts/gpu-check.sh does per headline problem",
      *fault));
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> devices;
  if (!cuda_status()) return devices;
  int count = 0;
  KBENCH_CUDA_CHECK(cudaGetDeviceCount(&count));
  for (int i = 0; i < count; ++i) devices.push_back(device_info(i));
  return devices;
}

DeviceInfo device_info(int device) {
  cudaDeviceProp prop{};
  KBENCH_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceInfo info;
  info.index = device;
  info.name = prop.name;
  info.uuid = format_uuid(prop.uuid);
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sms = prop.multiProcessorCount;
  info.l2_bytes = prop.l2CacheSize;
  info.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  // Clock rates left cudaDeviceProp in CUDA 13; the attributes still carry them (kHz).
  info.sm_clock_khz = attribute(cudaDevAttrClockRate, device);
  info.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
  info.bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  info.theoretical_bandwidth_Bps =
      2.0 * static_cast<double>(info.memory_clock_khz) * 1e3 * static_cast<double>(info.bus_width_bits) / 8.0;
  info.free_bytes = free_memory(device);
  return info;
}

Support fits_in_device_memory(std::int64_t bytes_needed, int device) {
  std::int64_t total_bytes = 0;
  const std::int64_t free_bytes = free_memory(device, &total_bytes);
  return device_memory_fits(bytes_needed, free_bytes, total_bytes, device);  // core/memory_budget.hpp, unit-tested
}

std::string format_bytes(std::int64_t bytes) {
  const double value = static_cast<double>(bytes);
  if (value >= 1e9) return fmt::format("{:.1f} GB", value / 1e9);
  if (value >= 1e6) return fmt::format("{:.1f} MB", value / 1e6);
  return fmt::format("{} bytes", bytes);
}

}  // namespace kbench::gpu
