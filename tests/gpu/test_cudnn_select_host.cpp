// How cuDNN's answers become a choice (cudnn_algo_select.hpp, cudnn_trial.hpp), with the answers
// faked: failing statuses, huge and negative-looking workspace sizes, algorithms that fail to run.
// Runs without a device.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_trial.hpp"
#include "runtime/tf32_override.hpp"

using namespace kbench::gpu;
using kbench::MathMode;

namespace {

constexpr std::int64_t kLimit = std::int64_t{1} << 30;  // 1 GiB

// Answers per algorithm; an algorithm not listed needs no workspace.
WorkspaceQueryFn fake_query(std::map<int, WorkspaceQuery> answers, std::vector<cudnnMathType_t>* asked = nullptr) {
  return [answers, asked](int algo, cudnnMathType_t math) {
    if (asked) asked->push_back(math);
    const auto it = answers.find(algo);
    return it == answers.end() ? WorkspaceQuery{} : it->second;
  };
}

RankedAlgo entry(int algo, std::size_t memory = 0, cudnnStatus_t status = CUDNN_STATUS_SUCCESS,
                 cudnnMathType_t math = CUDNN_DEFAULT_MATH) {
  return {algo, status, 0.5f, memory, math};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("workspace sizes are compared unsigned: a size of 2^63 or more is never within a limit") {
    CHECK(judge_workspace(0, kLimit) == WorkspaceVerdict::fits);
    CHECK(judge_workspace(std::size_t{1} << 30, kLimit) == WorkspaceVerdict::fits);
    CHECK(judge_workspace((std::size_t{1} << 30) + 1, kLimit) == WorkspaceVerdict::over_limit);
    CHECK(judge_workspace(std::size_t{1} << 63, kLimit) == WorkspaceVerdict::absurd);  // negative as int64
    CHECK(judge_workspace(~std::size_t{0}, kLimit) == WorkspaceVerdict::absurd);
    CHECK(judge_workspace(std::size_t{1} << 63, INT64_MAX) == WorkspaceVerdict::absurd);  // whatever the limit
    CHECK(judge_workspace(16, -1) == WorkspaceVerdict::over_limit);
    CHECK(contains(workspace_rejection("GEMM", std::size_t{1} << 63, kLimit),
                   "impossible workspace of 9223372036854775808"));
  }

  TEST_CASE("the ranked list keeps every usable entry in order, and a failing query rules out that entry only") {
    const std::vector<RankedAlgo> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_FFT, 0, CUDNN_STATUS_NOT_SUPPORTED),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD),                    // its query fails with an internal error
        entry(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, std::size_t{1} << 63),  // would pass a signed comparison
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, 1 << 20),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_DIRECT),  // asks for 2^64 - 1 bytes under its math type
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM),
    };
    const WorkspaceQueryFn query = fake_query({
        {CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, {CUDNN_STATUS_INTERNAL_ERROR, 0}},
        {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, {CUDNN_STATUS_SUCCESS, 1 << 20}},
        {CUDNN_CONVOLUTION_FWD_ALGO_DIRECT, {CUDNN_STATUS_SUCCESS, ~std::size_t{0}}},
    });
    const Selection s = select_ranked(ranked, query, CudnnApi::forward, kLimit, RankedMath::fma_only, CUDNN_FMA_MATH, "heuristic");
    REQUIRE(s.choice.has_value());
    CHECK(s.choice->algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK(s.choice->workspace_bytes == (1u << 20));
    CHECK(s.choice->math == CUDNN_FMA_MATH);
    REQUIRE(s.alternatives.size() == 1);
    CHECK(s.alternatives[0].algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
  }

  TEST_CASE("with nothing usable, the reason names every entry and what ruled it out") {
    const std::vector<RankedAlgo> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_FFT, 0, CUDNN_STATUS_NOT_SUPPORTED),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, std::size_t{1} << 63),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_DIRECT, 0, CUDNN_STATUS_SUCCESS, CUDNN_TENSOR_OP_MATH),
    };
    const WorkspaceQueryFn query =
        fake_query({{CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, {CUDNN_STATUS_EXECUTION_FAILED, 0}}});
    const Selection s = select_ranked(ranked, query, CudnnApi::forward, kLimit, RankedMath::fma_only, CUDNN_FMA_MATH, "heuristic");
    CHECK_FALSE(s.choice.has_value());
    CAPTURE(s.reason);
    CHECK(contains(s.reason, "cuDNN offers no usable forward algorithm: FFT: "));
    CHECK(contains(s.reason, "WINOGRAD: cuDNN's workspace query failed: "));
    CHECK(contains(s.reason, "GEMM: cuDNN quoted an impossible workspace"));
    CHECK(contains(s.reason, "DIRECT: CUDNN_TENSOR_OP_MATH (tensor ops; fp32 allows FMA math only)"));
  }

  TEST_CASE("an entry allowed to down-convert its inputs never runs, in any mode or dtype (as on the graph path)") {
    const std::vector<RankedAlgo> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, 0, CUDNN_STATUS_SUCCESS,
              CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION),
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, 0, CUDNN_STATUS_SUCCESS, CUDNN_TENSOR_OP_MATH),
    };
    // entry_own: tf32 on fp32 data, and all half data (ranked_math).
    for (const auto& [math, dtype] : {std::pair{MathMode::tf32, kbench::DType::fp32},
                                      std::pair{MathMode::fp32, kbench::DType::fp16},
                                      std::pair{MathMode::tf32, kbench::DType::bf16}}) {
      INFO(kbench::to_string(math), " ", kbench::to_string(dtype));
      std::vector<cudnnMathType_t> asked;
      const Selection s = select_ranked(ranked, fake_query({}, &asked), CudnnApi::forward, kLimit,
                                        ranked_math(math, dtype), initial_math(math, dtype), "heuristic");
      REQUIRE(s.choice.has_value());
      CHECK(s.choice->algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
      CHECK(s.choice->math == CUDNN_TENSOR_OP_MATH);
      CHECK(s.alternatives.empty());  // not kept as a fallback either
      CHECK(asked == std::vector<cudnnMathType_t>{CUDNN_TENSOR_OP_MATH});
    }
    const Selection none = select_ranked({ranked[0]}, fake_query({}), CudnnApi::forward, kLimit, RankedMath::entry_own,
                                         CUDNN_TENSOR_OP_MATH, "heuristic");
    CHECK_FALSE(none.choice.has_value());
    CHECK(contains(none.reason, "IMPLICIT_PRECOMP_GEMM: CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION (it may convert the inputs"));
  }

  TEST_CASE("in tf32 mode an entry runs under its own math type, and its workspace is asked under it") {
    std::vector<cudnnMathType_t> asked;
    const std::vector<RankedAlgo> ranked = {
        entry(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, 0, CUDNN_STATUS_SUCCESS, CUDNN_TENSOR_OP_MATH)};
    const Selection s = select_ranked(ranked, fake_query({}, &asked), CudnnApi::forward, kLimit, RankedMath::entry_own,
                                      CUDNN_DEFAULT_MATH, "heuristic");
    REQUIRE(s.choice.has_value());
    CHECK(s.choice->math == CUDNN_TENSOR_OP_MATH);
    CHECK(asked == std::vector<cudnnMathType_t>{CUDNN_TENSOR_OP_MATH});
    // fp32 keeps FMA math whatever a (non tensor-op) entry reports.
    asked.clear();
    const Selection f = select_ranked({entry(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)}, fake_query({}, &asked), CudnnApi::forward, kLimit,
                                      RankedMath::fma_only, CUDNN_FMA_MATH, "heuristic");
    REQUIRE(f.choice.has_value());
    CHECK(f.choice->math == CUDNN_FMA_MATH);
    CHECK(asked == std::vector<cudnnMathType_t>{CUDNN_FMA_MATH});
  }

  TEST_CASE("a forced algorithm whose query fails, or whose size is absurd, is unsupported with the answer") {
    const auto forced = [](WorkspaceQuery answer) {
      return select_forced(CUDNN_CONVOLUTION_FWD_ALGO_FFT, fake_query({{CUDNN_CONVOLUTION_FWD_ALGO_FFT, answer}}),
                           CudnnApi::forward, kLimit, CUDNN_FMA_MATH);
    };
    const Selection ok = forced({CUDNN_STATUS_SUCCESS, 4096});
    REQUIRE(ok.choice.has_value());
    CHECK(ok.choice->how == "forced");
    CHECK(ok.choice->workspace_bytes == 4096);
    const Selection refused = forced({CUDNN_STATUS_NOT_SUPPORTED, 0});
    CHECK_FALSE(refused.choice.has_value());
    CHECK(contains(refused.reason, "cuDNN does not support FFT for this problem"));
    const Selection failed = forced({CUDNN_STATUS_INTERNAL_ERROR, 0});
    CHECK_FALSE(failed.choice.has_value());
    CHECK(contains(failed.reason, "FFT: cuDNN's workspace query failed"));
    CHECK_FALSE(forced({CUDNN_STATUS_SUCCESS, std::size_t{1} << 63}).choice.has_value());
    CHECK_FALSE(forced({CUDNN_STATUS_SUCCESS, kLimit + 1}).choice.has_value());
  }

  TEST_CASE("the exhaustive search's workspace skips algorithms whose query fails or does not fit") {
    const std::vector<int> algos = {0, 1, 2, 3, 4};
    const WorkspaceQueryFn query = fake_query({{0, {CUDNN_STATUS_SUCCESS, 100}},
                                               {1, {CUDNN_STATUS_INTERNAL_ERROR, 1 << 20}},
                                               {2, {CUDNN_STATUS_SUCCESS, std::size_t{1} << 63}},
                                               {3, {CUDNN_STATUS_SUCCESS, 5000}},
                                               {4, {CUDNN_STATUS_SUCCESS, kLimit + 1}}});
    CHECK(largest_usable_workspace(algos, query, CUDNN_FMA_MATH, kLimit) == 5000);
    CHECK(largest_usable_workspace({1, 2, 4}, query, CUDNN_FMA_MATH, kLimit) == 0);
  }

  TEST_CASE("a candidate that fails to execute gives way to the next; a fault ends the trial") {
    const auto name = [](std::size_t i) { return "ALGO_" + std::to_string(i); };
    // The CUDA context as first_that_runs asks it after an execution failure: clean here.
    std::vector<std::string> asked;
    const auto clean_context = [&](const std::string& failure) { asked.push_back(failure); };
    std::vector<std::size_t> tried;
    const TrialOutcome outcome = first_that_runs(
        4, name,
        [&](std::size_t i) {
          tried.push_back(i);
          if (i == 0) throw CudnnError(CUDNN_STATUS_EXECUTION_FAILED, "cudnnConvolutionForward failed: EXECUTION_FAILED");
          if (i == 1) throw CudaError(cudaErrorMemoryAllocation, "cudaMalloc failed: out of memory");
        },
        clean_context);
    REQUIRE(outcome.chosen.has_value());
    CHECK(*outcome.chosen == 2);
    CHECK(tried == std::vector<std::size_t>{0, 1, 2});
    REQUIRE(outcome.skipped.size() == 2);
    CHECK(outcome.skipped[0] == "ALGO_0: cudnnConvolutionForward failed: EXECUTION_FAILED");
    CHECK(outcome.skipped[1] == "ALGO_1: cudaMalloc failed: out of memory");
    // The context was asked about the execution failure only, not about the allocation.
    CHECK(asked == std::vector<std::string>{"ALGO_0: cudnnConvolutionForward failed: EXECUTION_FAILED"});

    asked.clear();
    const TrialOutcome none = first_that_runs(
        2, name, [](std::size_t) { throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, "no"); }, clean_context);
    CHECK_FALSE(none.chosen.has_value());
    CHECK(none.skipped.size() == 2);
    CHECK(asked.empty());  // refusals are not execution failures

    // A sticky error: the context is lost, nothing else could run, so nothing else is tried.
    tried.clear();
    CHECK_THROWS_AS(first_that_runs(
                        3, name,
                        [&](std::size_t i) {
                          tried.push_back(i);
                          throw CudaError(cudaErrorIllegalAddress, "illegal address");
                        },
                        clean_context),
                    CudaError);
    CHECK(tried.size() == 1);
  }

  TEST_CASE("a cuDNN execution failure over a faulted context ends the trial as the CUDA fault") {
    const auto name = [](std::size_t i) { return "ALGO_" + std::to_string(i); };
    // The context as check_context_after finds it after a kernel fault: it throws the sticky error.
    const auto faulted_context = [](const std::string& failure) {
      throw CudaError(cudaErrorIllegalAddress, "the CUDA context after " + failure +
                                                   " failed: cudaErrorIllegalAddress (an illegal memory access)");
    };
    for (const cudnnStatus_t status :
         {CUDNN_STATUS_EXECUTION_FAILED, CUDNN_STATUS_EXECUTION_FAILED_CUDART, CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER,
          CUDNN_STATUS_EXECUTION_FAILED_CUBLAS, CUDNN_STATUS_EXECUTION_FAILED_CURAND}) {
      CAPTURE(static_cast<int>(status));
      std::vector<std::size_t> tried;
      try {
        (void)first_that_runs(
            3, name,
            [&](std::size_t i) {
              tried.push_back(i);
              throw CudnnError(status, "cudnnConvolutionForward failed");
            },
            faulted_context);
        FAIL("the trial went on after a fault");
      } catch (const CudaError& e) {
        CHECK(e.code() == cudaErrorIllegalAddress);
        CHECK(contains(e.what(), "ALGO_0: cudnnConvolutionForward failed"));
        CHECK(contains(e.what(), "cudaErrorIllegalAddress"));
      }
      CHECK(tried == std::vector<std::size_t>{0});  // not "no usable cuDNN algorithm executes"
    }
    // A failure that is not of execution never asks the context.
    const TrialOutcome refused = first_that_runs(
        2, name, [](std::size_t) { throw CudnnError(CUDNN_STATUS_BAD_PARAM, "bad"); }, faulted_context);
    CHECK(refused.skipped.size() == 2);
  }

  TEST_CASE("the statuses that may hide a kernel fault") {
    for (const cudnnStatus_t status :
         {CUDNN_STATUS_EXECUTION_FAILED, CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER, CUDNN_STATUS_EXECUTION_FAILED_CUBLAS,
          CUDNN_STATUS_EXECUTION_FAILED_CUDART, CUDNN_STATUS_EXECUTION_FAILED_CURAND})
      CHECK(is_execution_failure(status));
    for (const cudnnStatus_t status : {CUDNN_STATUS_SUCCESS, CUDNN_STATUS_NOT_SUPPORTED, CUDNN_STATUS_BAD_PARAM,
                                       CUDNN_STATUS_INTERNAL_ERROR, CUDNN_STATUS_ALLOC_FAILED})
      CHECK_FALSE(is_execution_failure(status));
  }

  TEST_CASE("NVIDIA_TF32_OVERRIDE: only a zero disables TF32") {
    const char* saved = std::getenv("NVIDIA_TF32_OVERRIDE");
    const std::string previous = saved ? saved : "";
    ::unsetenv("NVIDIA_TF32_OVERRIDE");
    CHECK_FALSE(nvidia_tf32_override().has_value());
    CHECK_FALSE(tf32_disabled_by_environment());
    for (const char* off : {"0", "00", " 0"}) {
      ::setenv("NVIDIA_TF32_OVERRIDE", off, 1);
      CHECK_MESSAGE(tf32_disabled_by_environment(), off);
    }
    for (const char* on : {"1", "", "01", "yes"}) {
      ::setenv("NVIDIA_TF32_OVERRIDE", on, 1);
      CHECK_FALSE_MESSAGE(tf32_disabled_by_environment(), on);
    }
    REQUIRE(nvidia_tf32_override().has_value());
    CHECK(*nvidia_tf32_override() == "yes");
    if (saved)
      ::setenv("NVIDIA_TF32_OVERRIDE", previous.c_str(), 1);
    else
      ::unsetenv("NVIDIA_TF32_OVERRIDE");
  }
}
