// Matching two runs' results and the exit status `kbench diff` derives from them: nothing is
// dropped, status changes are outcomes of their own, a device mismatch is flagged.
#include <doctest/doctest.h>

#include <string>

#include "core/error.hpp"
#include "diff/diff.hpp"
#include "test_report_fixture.hpp"

namespace {

using namespace kbench;
using namespace kbench::diff;
using kbench::test::fake_measurement;
using kbench::test::make_result;

Result timed(const std::string& workload, const std::string& backend, MathMode math, double median_s,
             const std::string& implementation = "") {
  Result r = make_result(workload, backend, implementation, math, ResultStatus::ok);
  r.timing = fake_measurement(median_s, median_s * 0.02, 20);
  return r;
}

RunReport run_on(const std::string& device, const std::string& model) {
  RunReport report;
  report.device = device;
  report.peaks.name = model;
  report.kbench_version = "0.1.0-test";
  return report;
}

const ResultPair& pair_for(const DiffReport& diff, const std::string& workload, const std::string& backend) {
  for (const ResultPair& pair : diff.pairs)
    if (pair.key.workload == workload && pair.key.backend == backend) return pair;
  FAIL("no pair " << workload << "/" << backend);
  return diff.pairs.front();
}

}  // namespace

TEST_CASE("diff: results pair up by workload, backend, variant and math mode") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = run_on("GPU A", "Model X");
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("w1", "cudnn", MathMode::tf32, 0.5e-3),
                  timed("w2", "cuda", MathMode::fp32, 2e-3)};
  // NEW lists them in another order: matching is by key, not position.
  next.results = {timed("w2", "cuda", MathMode::fp32, 2e-3), timed("w1", "cudnn", MathMode::tf32, 0.35e-3),
                  timed("w1", "cudnn", MathMode::fp32, 1.3e-3)};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.pairs.size() == 3);
  CHECK(diff.only_in_base.empty());
  CHECK(diff.only_in_current.empty());
  CHECK(diff.pairs[0].key.math == MathMode::fp32);
  CHECK(diff.pairs[0].timing->verdict == Verdict::slower);
  CHECK(diff.pairs[1].timing->verdict == Verdict::faster);
  CHECK(diff.pairs[2].timing->verdict == Verdict::same);
  CHECK_FALSE(diff.device_differs);
  CHECK_FALSE(diff.model_differs);
  CHECK(diff_exit_code(diff) == exit_result_failed);
}

TEST_CASE("diff: dtype and layout are part of the key: fp16 nhwc never pairs with fp32 nchw") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  Result fp32 = timed("w1", "cuda", MathMode::fp32, 1e-3);
  Result half = timed("w1", "cuda", MathMode::fp32, 0.2e-3);
  half.dtype = DType::fp16;
  half.layout = Layout::nhwc;
  Result fp32_nhwc = timed("w1", "cuda", MathMode::fp32, 0.5e-3);
  fp32_nhwc.layout = Layout::nhwc;
  base.results = {fp32, half};
  next.results = {half, fp32_nhwc};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.pairs.size() == 1);
  CHECK(diff.pairs[0].key.dtype == DType::fp16);
  CHECK(diff.pairs[0].key.layout == Layout::nhwc);
  CHECK(diff.pairs[0].timing->verdict == Verdict::same);
  REQUIRE(diff.only_in_base.size() == 1);
  CHECK(key_of(diff.only_in_base[0]).layout == Layout::nchw);
  REQUIRE(diff.only_in_current.size() == 1);
  CHECK(key_of(diff.only_in_current[0]).layout == Layout::nhwc);
  CHECK(to_string(key_of(half)) == "w1 · cuda · fp32 · fp16 nhwc");
  CHECK(to_string(key_of(fp32)) == "w1 · cuda · fp32");  // as before half precision
}

TEST_CASE("diff: exit 0 when nothing is slower, faster results included") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("w2", "cudnn", MathMode::fp32, 1e-3)};
  next.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("w2", "cudnn", MathMode::fp32, 0.7e-3)};
  const DiffReport diff = diff_reports(base, next, {});
  const DiffCounts counts = count_outcomes(diff);
  CHECK(counts.same == 1);
  CHECK(counts.faster == 1);
  CHECK(diff_exit_code(diff) == exit_ok);
}

TEST_CASE("diff: variants are separate results, another implementation of the same request is noted") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  Result gemm = timed("w1", "cudnn", MathMode::fp32, 1e-3, "cudnn:GEMM");
  gemm.variant = "GEMM";
  Result heuristic = timed("w1", "cudnn", MathMode::fp32, 1e-3, "cudnn:IMPLICIT_GEMM");
  base.results = {gemm, heuristic};
  Result heuristic_now = timed("w1", "cudnn", MathMode::fp32, 1e-3, "cudnn:FFT");
  next.results = {heuristic_now, gemm};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.pairs.size() == 2);
  CHECK(diff.pairs[0].key.variant == "GEMM");
  CHECK(diff.pairs[0].notes.empty());
  CHECK(diff.pairs[1].key.variant.empty());
  REQUIRE(diff.pairs[1].notes.size() == 1);
  CHECK(diff.pairs[1].notes[0] == "implementation changed: cudnn:IMPLICIT_GEMM → cudnn:FFT");
}

TEST_CASE("diff: unmatched results are listed on their side, not dropped") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("removed", "cudnn", MathMode::fp32, 1e-3)};
  next.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("added", "cuda", MathMode::fp32, 1e-3)};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.pairs.size() == 1);
  REQUIRE(diff.only_in_base.size() == 1);
  CHECK(diff.only_in_base[0].workload == "removed");
  REQUIRE(diff.only_in_current.size() == 1);
  CHECK(diff.only_in_current[0].workload == "added");
  CHECK(diff_exit_code(diff) == exit_ok);  // an added ok result is no regression
}

TEST_CASE("diff: status changes are outcomes, newly wrong or failed exits 1") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("breaks", "cuda", MathMode::fp32, 1e-3),
                  make_result("stays", "cuda", "", MathMode::fp32, ResultStatus::wrong, "37 mismatches"),
                  make_result("fixed", "cuda", "", MathMode::fp32, ResultStatus::failed, "launch failed"),
                  make_result("gpu-less", "cudnn", "", MathMode::fp32, ResultStatus::unavailable, "no CUDA device")};
  next.results = {make_result("breaks", "cuda", "", MathMode::fp32, ResultStatus::wrong, "12 mismatches"),
                  make_result("stays", "cuda", "", MathMode::fp32, ResultStatus::wrong, "37 mismatches"),
                  timed("fixed", "cuda", MathMode::fp32, 1e-3), timed("gpu-less", "cudnn", MathMode::fp32, 1e-3)};
  const DiffReport diff = diff_reports(base, next, {});
  CHECK(pair_for(diff, "breaks", "cuda").outcome == PairOutcome::broke);
  CHECK(pair_for(diff, "stays", "cuda").outcome == PairOutcome::still_broken);
  CHECK(pair_for(diff, "fixed", "cuda").outcome == PairOutcome::fixed);
  CHECK(pair_for(diff, "gpu-less", "cudnn").outcome == PairOutcome::not_compared);
  CHECK_FALSE(pair_for(diff, "gpu-less", "cudnn").timing);
  CHECK(diff_exit_code(diff) == exit_result_failed);

  // Still broken alone is not a new failure.
  next.results[0] = timed("breaks", "cuda", MathMode::fp32, 1e-3);
  CHECK(diff_exit_code(diff_reports(base, next, {})) == exit_ok);
}

TEST_CASE("diff: a wrong result in NEW that BASE did not have exits 1") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3)};
  next.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3),
                  make_result("w1", "cuda", "", MathMode::fp32, ResultStatus::failed, "illegal address")};
  const DiffReport diff = diff_reports(base, next, {});
  CHECK(count_outcomes(diff).added_broken == 1);
  CHECK(diff_exit_code(diff) == exit_result_failed);
}

TEST_CASE("diff: a wrong result's leftover timing is never compared") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("w1", "cuda", MathMode::fp32, 1e-3)};
  Result wrong = timed("w1", "cuda", MathMode::fp32, 0.1e-3);
  wrong.status = ResultStatus::wrong;
  next.results = {wrong};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.pairs.size() == 1);
  CHECK(diff.pairs[0].outcome == PairOutcome::broke);
  CHECK_FALSE(diff.pairs[0].timing);
}

TEST_CASE("diff: a device mismatch is flagged and results are still matched") {
  RunReport base = run_on("NVIDIA H100 (device 0, GPU-aaa)", "NVIDIA H100 SXM5 80GB");
  RunReport other_card = run_on("NVIDIA H100 (device 1, GPU-bbb)", "NVIDIA H100 SXM5 80GB");
  RunReport other_model = run_on("NVIDIA H200 (device 0, GPU-ccc)", "NVIDIA H200");
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3)};
  other_card.results = base.results;
  other_model.results = base.results;

  const DiffReport card = diff_reports(base, other_card, {});
  CHECK(card.device_differs);
  CHECK_FALSE(card.model_differs);
  CHECK(card.pairs.size() == 1);

  const DiffReport model = diff_reports(base, other_model, {});
  CHECK(model.device_differs);
  CHECK(model.model_differs);
  CHECK(model.pairs.size() == 1);
  CHECK(model.current.peaks_name == "NVIDIA H200");
}

TEST_CASE("diff: repeated keys pair up in order") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("w1", "cudnn", MathMode::fp32, 2e-3)};
  next.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3), timed("w1", "cudnn", MathMode::fp32, 2e-3),
                  timed("w1", "cudnn", MathMode::fp32, 3e-3)};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.pairs.size() == 2);
  CHECK(diff.pairs[0].timing->verdict == Verdict::same);
  CHECK(diff.pairs[1].timing->verdict == Verdict::same);
  CHECK(diff.only_in_current.size() == 1);
}

TEST_CASE("diff: nothing in common is unusable input (exit 2)") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  base.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3)};
  next.results = {timed("w2", "cudnn", MathMode::fp32, 1e-3)};
  CHECK(diff_exit_code(diff_reports(base, next, {})) == exit_bad_input);
  CHECK(diff_exit_code(diff_reports(run_on("a", "b"), run_on("a", "b"), {})) == exit_bad_input);
}

TEST_CASE("diff: differing timing settings and interrupted runs are noted") {
  RunReport base = run_on("GPU A", "Model X");
  RunReport next = base;
  next.settings.measure.timing.cold = !base.settings.measure.timing.cold;
  next.interrupted = true;
  base.results = next.results = {timed("w1", "cudnn", MathMode::fp32, 1e-3)};
  const DiffReport diff = diff_reports(base, next, {});
  REQUIRE(diff.notes.size() == 2);
  CHECK(diff.notes[0].find("timing differs") == 0);
  CHECK(diff.notes[1].find("NEW was interrupted") == 0);
}

TEST_CASE("diff: bad options are input errors") {
  const RunReport report = run_on("a", "b");
  CHECK_THROWS_AS(diff_reports(report, report, {-0.01, 0.05}), InputError);
  CHECK_THROWS_AS(diff_reports(report, report, {0.05, 0}), InputError);
  CHECK_THROWS_AS(diff_reports(report, report, {0.05, 1}), InputError);
}
