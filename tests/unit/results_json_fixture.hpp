#pragma once
// Reports that make the JSON writer emit every key it has (fully_populated_report) and as few as it
// can (minimal_reports): the round trip and the schema/docs checks run on both.
#include <vector>

#include "test_report_fixture.hpp"

namespace kbench::test {

// fixture_report() plus every key written only sometimes: a workload's count and sweep, an error
// bound that rounds twice beside a tolerance, a fresh-inputs check with a first mismatch, half
// peaks from the source, the host's memory, an interrupted run.
inline RunReport fully_populated_report() {
  RunReport report = fixture_report();
  report.peak_rss_bytes = 123456789;
  report.interrupted = true;
  report.peaks.fp16_tensor_flops = 989.4e12;
  report.peaks.bf16_tensor_flops = 989.5e12;
  report.peaks.fp16_flops = 133.8e12;
  Workload& first = report.workloads[0].workload;
  first.count = 3;
  first.sweep_origin = "conv1d";
  first.sweep = {{"kernel", "3"}, {"stride", "3"}};
  WorkloadSummary& second = report.workloads[1];
  second.workload.problem.dtype = DType::fp16;
  second.workload.problem.layout = Layout::nhwc;
  second.workload.problem.pass = Pass::backward_data;
  for (Result& r : report.results) {
    r.accumulation = r.backend == "reference" ? "fp64" : "fp32";
    if (r.workload == second.workload.name) {
      r.dtype = DType::fp16;
      r.layout = Layout::nhwc;
      r.pass = Pass::backward_data;
    }
  }
  Verification& v = *report.results[0].verification;
  v.tolerance = Tolerance{1e-4, 1e-4};
  v.bound->output_rounding = OutputRounding::bias_added_after;
  v.fresh_inputs->first_mismatch = 17;
  v.fresh_inputs->first_mismatch_got = 0.5;
  v.fresh_inputs->first_mismatch_expected = 0.25;
  v.fresh_inputs->first_mismatch_allowed = 1e-3;
  v.fresh_inputs->mismatches = 1;
  return report;
}

// A report of nothing, and one result that never ran for a workload with no records.
inline std::vector<RunReport> minimal_reports() {
  RunReport empty;
  empty.kbench_version = "0.1.0-test";
  RunReport one = empty;
  one.workloads.push_back(summarize_for_test(conv_transpose3d_workload(), one.peaks));
  one.results.push_back(make_result(one.workloads[0].workload.name, "cuda", "", MathMode::fp32,
                                    ResultStatus::unavailable, "no CUDA device found"));
  return {empty, one};
}

}  // namespace kbench::test
