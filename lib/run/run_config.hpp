#pragma once
// Everything `kbench run` / `kbench compare` decide before running, as plain data.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/registry.hpp"
#include "measure/measure.hpp"
#include "roofline/device_peaks.hpp"
#include "run/shard.hpp"
#include "verify/tolerance.hpp"

namespace kbench {

// One entry of --backends: "cuda", "cudnn:IMPLICIT_PRECOMP_GEMM" (a variant) or "cudnn:all".
struct BackendRequest {
  std::string backend;
  std::string variant;
  bool all_variants = false;
  friend bool operator==(const BackendRequest&, const BackendRequest&) = default;
};

// Comma-separated list; throws InputError on an empty entry. A piece with '=' and no ':' belongs to the
// variant before it, so a cuDNN engine config keeps its knob list (cudnn:engine/12:TILEK=2,SPLIT_K_SLC=1).
std::vector<BackendRequest> parse_backend_list(const std::string& text);

// The backend a request names; throws InputError (--backends: ...) when it names none, or a variant the
// backend can never use (Backend::variant_usable).
Backend& requested_backend(const Registry& registry, const BackendRequest& request);

struct RunConfig {
  std::vector<BackendRequest> backends;  // empty: every available GPU backend (the reference if none)
  std::vector<MathMode> math_modes{MathMode::fp32};
  std::uint64_t seed = 0;
  MeasureOptions measure;
  BackendOptions backend_options;      // math and variant are set per result
  std::optional<Tolerance> tolerance;  // default: default_tolerance(math)
  std::int64_t verify_points = 4096;   // sampled output elements when a full check is too slow
  double full_verify_max_s = 2.0;      // check every element when the CPU reference needs at most this
  std::optional<std::int64_t> batch;   // --batch: replaces every workload's N (and the report says so)
  std::string dump_dir;                // --dump: .npy files of inputs and outputs
  DevicePeaks peaks;                   // floors are computed against these
  bool peaks_from_target = false;
  std::string device_description;
  // --shard K/N: run only the (workload, backend, math) items this shard selects (run/shard.hpp).
  // Every shard still lists every workload's analysis, so merged shards describe the whole suite.
  Shard shard;
};

}  // namespace kbench
