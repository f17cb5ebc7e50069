#pragma once
// NVIDIA_TF32_OVERRIDE=0 makes cuDNN and cuBLAS run FP32 FMA kernels wherever TF32 would be allowed,
// process-wide, without telling the caller. kbench's own kernels choose their instructions in PTX
// and are unaffected; a cuDNN result asked for tf32 is not tf32 under it, and must say so.
#include <cstdlib>
#include <optional>
#include <string>

namespace kbench::gpu {

inline std::optional<std::string> nvidia_tf32_override() {
  const char* value = std::getenv("NVIDIA_TF32_OVERRIDE");
  if (!value) return std::nullopt;
  return std::string(value);
}

// The libraries read the value as an integer, and only 0 changes anything ("1" is their default).
inline bool tf32_disabled_by_environment() {
  const auto value = nvidia_tf32_override();
  return value && value->find('0') != std::string::npos && value->find_first_not_of("0 \t") == std::string::npos;
}

}  // namespace kbench::gpu
