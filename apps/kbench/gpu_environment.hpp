#pragma once
// The CLI's one window onto the GPU side. Built with CUDA, it asks kernels/ (kbench::gpu); built
// without, it answers "no CUDA in this build", so every command works the same on any machine.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/registry.hpp"
#include "roofline/device_peaks.hpp"

namespace kbench::cli {

struct GpuEnvironment {
  bool present = false;
  std::string description;               // the device, or why there is none
  std::optional<DevicePeaks> datasheet;  // the table entry for this device, or peaks derived from its attributes
  std::optional<DevicePeaks> measured;   // stored by `kbench calibrate`
  std::string calibration_problem;       // why a stored calibration could not be used (damaged file)
  PlanDevice plan_device;                // what `kbench plan` plans for when present
};

GpuEnvironment detect_gpu(int device);

// The CUDA device indices present (empty when there are none); `why_none` says why when empty.
std::vector<int> list_device_indices(std::string& why_none);

// Every backend this build has, in a fixed order: the reference first, then the GPU ones, then torch
// (its interpreter: `python` from --python, else $KBENCH_PYTHON, else python3 on PATH).
void register_backends(Registry& registry, const std::string& python = {});

// (key, value) lines for `kbench info`: compiler, CUDA and cuDNN versions, devices.
std::vector<std::pair<std::string, std::string>> build_and_device_info();

// `kbench calibrate`: measures, stores and prints; returns the exit code.
int calibrate_and_store(int device);

}  // namespace kbench::cli
