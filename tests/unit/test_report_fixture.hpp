#pragma once
// A synthetic RunReport for the reporter tests: fixed timestamps and host, fake but plausible
// samples, and one result of every status, so each reporter's every branch shows in the golden
// files. Metrics and floors come from the real compute_metrics / compute_floor against made-up
// peaks ("Test GPU" is in no datasheet table, so nothing outside this file moves the numbers
// except the formulas themselves).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "measure/statistics.hpp"
#include "problem/problem_metrics.hpp"
#include "roofline/floor.hpp"
#include "run/result.hpp"
#include "headline_problems.hpp"

namespace kbench::test {

// A median no reporter may ever print: it belongs to a wrong result.
inline constexpr double kWrongResultMedian_s = 0.004321987;

inline DevicePeaks fixture_peaks() {
  DevicePeaks p;
  p.name = "Test GPU";
  p.key = "test";
  p.source = "datasheet";
  p.bandwidth_Bps = 4.8e12;
  p.fp32_flops = 67e12;
  p.tf32_flops = 494.7e12;
  p.sms = 132;
  p.l2_bytes = 60e6;
  return p;
}

// `count` samples spread evenly over [center - spread/2, center + spread/2], in a shuffled but fixed order.
inline Measurement fake_measurement(double center_s, double spread_s, int count) {
  Measurement m;
  for (int i = 0; i < count; ++i) {
    const int slot = (i * 7) % count;  // 7 is coprime with every count used here: a permutation
    const double fraction = count > 1 ? static_cast<double>(slot) / (count - 1) : 0.5;
    m.samples_s.push_back(center_s - spread_s / 2 + spread_s * fraction);
  }
  m.stats = summarize(m.samples_s);
  m.wall_s = center_s * (count + 4);
  return m;
}

inline Verification passed_verification(std::int64_t checked, bool full, double max_abs_error) {
  Verification v;
  v.bound = ErrorBound{
      .lambda = 4, .reduction_length = 193, .u_accumulate = 0x1p-24, .u_operand = 0x1p-19, .u_output = 0x1p-24};
  v.full = full;
  v.comparison.checked = checked;
  v.comparison.max_abs_error = max_abs_error;
  v.comparison.max_rel_error = max_abs_error * 10;
  v.comparison.max_error_ratio = 0.125;
  v.kernelbench_rule = KernelBenchRule{Tolerance{1e-4, 1e-4}, v.comparison};
  return v;
}

inline WorkloadSummary summarize_for_test(Workload workload, const DevicePeaks& peaks) {
  WorkloadSummary s;
  s.metrics = compute_metrics(workload.problem);
  s.floor_fp32 = compute_floor(s.metrics, peaks, MathMode::fp32);
  s.floor_tf32 = compute_floor(s.metrics, peaks, MathMode::tf32);
  s.spec_batch = workload.problem.batch;
  s.workload = std::move(workload);
  return s;
}

// KernelBench level 1 #76: Conv1d, N=64, C 64 -> 128, L=524280, k3 s3 d4.
inline Workload conv1d_workload() {
  Workload w;
  w.name = "conv1d_dilated_strided";
  w.description = "KernelBench level 1 #76: standard 1D convolution, dilated and strided";
  w.source_file = "workloads/kernelbench/level1/76_conv1d.yaml";
  w.source_line = 2;
  ConvProblem& p = w.problem;
  p.spatial_rank = 1;
  p.batch = 64;
  p.in_channels = 64;
  p.out_channels = 128;
  p.input = {{524280, 1, 1}};
  p.kernel = {{3, 1, 1}};
  p.stride = {{3, 1, 1}};
  p.dilation = {{4, 1, 1}};
  w.records.push_back({"NVIDIA H100 80GB HBM3", "PyTorch eager", 12.2, 0.153, "KernelBench leaderboard", MathMode::tf32});
  w.records.push_back({"NVIDIA H100 80GB HBM3", "torch.compile", 12.3, -1, "KernelBench leaderboard"});
  return w;
}

// KernelBench level 1 #77: ConvTranspose3d, C 32 -> 64, 16x32x32, k3 s2 p1 d2; the batch overridden to 2.
inline Workload conv_transpose3d_workload() {
  Workload w;
  w.name = "conv_transpose3d_dilated";
  w.source_file = "workloads/kernelbench/level1/77_conv_transpose3d.yaml";
  w.problem = testing::headline77();
  w.problem.batch = 2;
  w.problem.bias = true;
  return w;
}

inline Result make_result(const std::string& workload, const std::string& backend, const std::string& implementation,
                          MathMode math, ResultStatus status, const std::string& reason = "") {
  Result r;
  r.workload = workload;
  r.backend = backend;
  r.implementation = implementation;
  r.math_requested = math;
  r.math_used = math;
  r.status = status;
  r.reason = reason;
  return r;
}

inline RunReport fixture_report() {
  RunReport report;
  report.kbench_version = "0.1.0-test";
  report.build = "commit 0123456789ab · Release · GNU 12.2.0 · CUDA 13.0.88 sm_90";
  report.started_at = "2026-01-02T03:04:05Z";
  report.host = "testhost";
  report.device = "Test GPU (fake, 132 SMs)";
  report.host_cpu = "Test CPU, 2 threads";
  report.peaks = fixture_peaks();
  report.settings.backends = {"cudnn", "cuda:all", "reference"};
  report.settings.math_modes = {MathMode::fp32, MathMode::tf32};
  report.settings.seed = 42;
  report.settings.verify_points = 4096;
  report.notes = {"clocks were not locked; expect a few percent of noise"};

  report.workloads.push_back(summarize_for_test(conv1d_workload(), report.peaks));
  WorkloadSummary transposed = summarize_for_test(conv_transpose3d_workload(), report.peaks);
  transposed.batch_overridden = true;
  transposed.spec_batch = 16;
  report.workloads.push_back(transposed);

  const std::string w1 = report.workloads[0].workload.name;
  const std::string w2 = report.workloads[1].workload.name;

  // Workload 1: a clean cuDNN result, a TF32 request that fell back to FMA, a wrong kernel that
  // was (wrongly) left holding a timing, and a skip whose reason is too long for its row.
  Result cudnn = make_result(w1, "cudnn", "cudnn:IMPLICIT_PRECOMP_GEMM", MathMode::fp32, ResultStatus::ok);
  cudnn.verification = passed_verification(4096, false, 3.0517578125e-05);
  cudnn.timing = fake_measurement(9.87e-3, 0.2e-3, 20);
  cudnn.properties = {{"workspace_bytes", "1048576"}, {"algo_search", "heuristic"}};
  cudnn.verification->fresh_inputs = cudnn.verification->comparison;
  cudnn.verification->fresh_inputs_seed = 18446744073709551557ULL;  // above INT64_MAX: read back unsigned
  report.results.push_back(cudnn);

  Result fallback = make_result(w1, "cuda", "direct_1d_strided_dilated_long_name", MathMode::tf32, ResultStatus::ok);
  fallback.variant = "direct";
  fallback.math_used = MathMode::fp32;
  fallback.verification = passed_verification(4096, false, 1.52587890625e-05);
  fallback.timing = fake_measurement(8.5e-3, 0.1e-3, 20);
  fallback.timing->throttled_samples = 2;
  fallback.warnings = {"suspicious: median 8.5 ms is 12% below the roofline floor of 9.7 ms (compute-bound)"};
  report.results.push_back(fallback);

  Result wrong = make_result(w1, "cuda", "rows_vectorized", MathMode::fp32, ResultStatus::wrong,
                             "37 of 4096 checked elements out of tolerance (atol 0.0001, rtol 0.0001); first at output "
                             "index 174757: got nan, expected 0.1875");
  wrong.variant = "rows";
  wrong.verification = passed_verification(4096, false, std::numeric_limits<double>::infinity());
  wrong.verification->comparison.mismatches = 37;
  wrong.verification->comparison.max_rel_error = std::numeric_limits<double>::quiet_NaN();
  wrong.verification->comparison.first_mismatch = 4095;
  wrong.verification->comparison.first_mismatch_got = std::numeric_limits<double>::quiet_NaN();
  wrong.verification->comparison.first_mismatch_expected = 0.1875;
  wrong.timing = fake_measurement(kWrongResultMedian_s, 0.0, 20);  // must never be shown
  report.results.push_back(wrong);

  Result skipped = make_result(
      w1, "reference", "", MathMode::fp32, ResultStatus::skipped,
      "the CPU reference needs about 41.2 s per run here (13.34 GFLOP/s measured), 6 runs at least; over the "
      "--time-budget of 30.0 s per workload and backend");
  skipped.ran_on = ResultDevice::cpu;
  report.results.push_back(skipped);

  // Workload 2: few samples (±stdev), an exhausted budget, a verify-only reference result, and the
  // statuses that never ran.
  Result tf32 = make_result(w2, "cudnn", "cudnn:FFT_TILING", MathMode::tf32, ResultStatus::ok);
  tf32.verification = passed_verification(270400, true, 0.0078125);
  tf32.verification->bound.reset();  // as under --atol/--rtol
  tf32.verification->tolerance = Tolerance{1e-2, 1e-2};
  tf32.timing = fake_measurement(61.5e-6, 1.5e-6, 5);
  tf32.timing->budget_exhausted = true;
  report.results.push_back(tf32);

  Result reference = make_result(w2, "reference", "cpu_fp64_gather", MathMode::fp32, ResultStatus::ok);
  reference.verification = passed_verification(270400, true, 0);
  reference.ran_on = ResultDevice::cpu;
  report.results.push_back(reference);

  report.results.push_back(make_result(w2, "cuda", "", MathMode::fp32, ResultStatus::unsupported,
                                       "conv_transpose with dilation > 1 is not implemented"));
  report.results.push_back(
      make_result(w2, "triton", "", MathMode::fp32, ResultStatus::unavailable, "no CUDA device found"));
  report.results.push_back(make_result(w2, "cudnn", "cudnn:WINOGRAD", MathMode::fp32, ResultStatus::failed,
                                       "CUDNN_STATUS_NOT_SUPPORTED | cudnnConvolutionBackwardData, \"quoted\""));

  // A result for a workload the report does not describe, as a hand-edited file might hold.
  Result orphan = make_result("ghost_workload", "cudnn", "cudnn:GEMM", MathMode::fp32, ResultStatus::ok);
  orphan.verification = passed_verification(10, true, 0);
  orphan.timing = fake_measurement(1.25, 0.01, 1);
  report.results.push_back(orphan);
  return report;
}

}  // namespace kbench::test
