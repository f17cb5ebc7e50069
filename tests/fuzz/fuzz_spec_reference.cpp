// libFuzzer target: every spec the parser accepts must describe a problem the rest of kbench can use.
// For each accepted workload it checks the validator agrees with itself, the derived sizes and metrics
// are sane, the roofline floor is finite, and the CPU reference computes finite values wherever that
// is cheap, and computes the same values through its full and its sampled entry points on tiny problems.
// This fuzzes validation + metrics + reference together with the parser.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/host_tensors.hpp"
#include "fuzz_support.hpp"
#include "problem/conv_pass.hpp"
#include "problem/problem_metrics.hpp"
#include "problem/problem_validation.hpp"
#include "reference/reference_conv.hpp"
#include "roofline/device_peaks.hpp"
#include "roofline/floor.hpp"
#include "verify/check_points.hpp"

namespace {

using kbench::ConvProblem;
using kbench::fuzz::require;

// Budgets that keep one fuzz input in the milliseconds: a sampled element of the tensor the pass computes
// costs its reduction length in multiply-adds (C_in/g x taps forward; N x spatial for grad_weight); a full
// reference run costs its FLOPs and allocates every tensor.
constexpr double kMaxTermsPerSampledPoint = 2e5;
constexpr double kMaxFullReferenceFlops = 2e5;
constexpr double kMaxFullReferenceElements = 1e5;
constexpr std::uint64_t kSeed = 7;

void check_sizes(const ConvProblem& p, const std::string& name) {
  require(!kbench::find_problem_issue(p), "accepted problem fails find_problem_issue", name);
  for (int d = 0; d < p.spatial_rank; ++d)
    require(p.output_extent(d) >= 1 && p.output_extent(d) <= kbench::kMaxProblemDimension,
            "accepted problem has an output extent out of range", name);
  for (std::int64_t elements : {p.input_elements(), p.weight_elements(), p.output_elements()})
    require(elements >= 1 && elements <= kbench::kMaxTensorElements, "accepted problem has a tensor out of range",
            name);
}

void check_metrics(const ConvProblem& p, const std::string& name) {
  const kbench::ProblemMetrics metrics = kbench::compute_metrics(p);
  require(std::isfinite(metrics.flops) && metrics.flops > 0, "FLOPs not finite and positive", name);
  require(std::isfinite(metrics.bytes()) && metrics.bytes() > 0, "bytes not finite and positive", name);
  require(!kbench::describe(p).empty(), "empty problem description", name);
  static const kbench::DevicePeaks peaks = *kbench::find_device("h100-sxm");
  for (kbench::MathMode math : {kbench::MathMode::fp32, kbench::MathMode::tf32}) {
    const kbench::Floor floor = kbench::compute_floor(metrics, peaks, math, p.dtype);
    require(std::isfinite(floor.floor_s) && floor.floor_s > 0, "roofline floor not finite and positive", name);
  }
}

void check_reference(const ConvProblem& p, const std::string& name) {
  if (static_cast<double>(kbench::reduction_length(p)) > kMaxTermsPerSampledPoint) return;
  // Corners, borders and random points, including the last element: where index arithmetic breaks first.
  const std::vector<std::int64_t> points = kbench::choose_check_points(p, 8, kSeed);
  require(!points.empty(), "no check points chosen", name);
  for (std::int64_t point : points)
    require(point >= 0 && point < kbench::computed_elements(p), "check point outside the computed tensor", name);
  const std::vector<double> sampled = kbench::reference::convolve_at_seeded(p, kSeed, points);
  for (double value : sampled) require(std::isfinite(value), "reference value not finite", name);

  const double elements = static_cast<double>(p.input_elements()) + static_cast<double>(p.weight_elements()) +
                          static_cast<double>(p.output_elements());
  if (kbench::compute_metrics(p).flops > kMaxFullReferenceFlops || elements > kMaxFullReferenceElements) return;
  const std::vector<double> full = kbench::reference::convolve(p, kbench::data::make_host_tensors(p, kSeed));
  require(static_cast<std::int64_t>(full.size()) == kbench::computed_elements(p), "full reference has the wrong size",
          name);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double expected = full[static_cast<std::size_t>(points[i])];
    require(std::abs(sampled[i] - expected) <= 1e-9 * (1 + std::abs(expected)),
            "convolve and convolve_at_seeded disagree", name);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto workloads = kbench::fuzz::parse_or_refuse(data, size);
  if (!workloads) return 0;
  for (const kbench::Workload& workload : *workloads) {
    check_sizes(workload.problem, workload.name);
    check_metrics(workload.problem, workload.name);
    check_reference(workload.problem, workload.name);
  }
  return 0;
}
