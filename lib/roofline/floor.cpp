#include "roofline/floor.hpp"

#include <algorithm>

#include "roofline/device_peaks.hpp"

namespace kbench {

Floor compute_floor(const ProblemMetrics& metrics, const DevicePeaks& peaks, MathMode math, DType dtype) {
  Floor f;
  f.memory_s = metrics.bytes() / peaks.bandwidth_Bps;  // bytes already by element size (problem_metrics)
  f.compute_s = metrics.flops / peaks.flops_for(math, dtype);
  f.compute_units = peaks.compute_units_for(math, dtype);
  f.floor_s = std::max(f.memory_s, f.compute_s);
  f.binds = f.memory_s >= f.compute_s ? "memory" : "compute";
  // headroom-v1 always uses the datasheet bandwidth of the same device, whatever `peaks` came from.
  const auto datasheet = find_device(peaks.name);
  const double datasheet_bw = datasheet ? datasheet->bandwidth_Bps : peaks.bandwidth_Bps;
  f.published_input_only_s = metrics.input_bytes / datasheet_bw;
  return f;
}

std::string binding_text(const Floor& floor) {
  if (floor.binds != "compute") return floor.binds;
  return "compute, " + std::string(to_string(floor.compute_units));
}

}  // namespace kbench
