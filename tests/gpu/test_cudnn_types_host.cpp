// kbench's dtypes, layouts and math modes in cuDNN's enums (cudnn_types.hpp), and how half data
// selects among cuDNN's ranked entries. Runs without a device.
#include <doctest/doctest.h>

#include <vector>

#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_types.hpp"

using namespace kbench::gpu;
using kbench::DType;
using kbench::MathMode;

TEST_SUITE("host") {
  TEST_CASE("data types: fp32, fp16 and bf16 tensors, fp32 compute for all") {
    CHECK(cudnn_data_type(DType::fp32) == CUDNN_DATA_FLOAT);
    CHECK(cudnn_data_type(DType::fp16) == CUDNN_DATA_HALF);
    CHECK(cudnn_data_type(DType::bf16) == CUDNN_DATA_BFLOAT16);
    for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
      CHECK(cudnn_compute_type(dtype) == CUDNN_DATA_FLOAT);
    CHECK(data_type_name(CUDNN_DATA_HALF) == "CUDNN_DATA_HALF");
    CHECK(data_type_name(CUDNN_DATA_BFLOAT16) == "CUDNN_DATA_BFLOAT16");
    CHECK(data_type_name(CUDNN_DATA_FLOAT) == "CUDNN_DATA_FLOAT");
  }

  TEST_CASE("filter format: NCHW, or NHWC (KRSC) for channels last") {
    CHECK(cudnn_filter_format(false) == CUDNN_TENSOR_NCHW);
    CHECK(cudnn_filter_format(true) == CUDNN_TENSOR_NHWC);
    CHECK(tensor_format_name(CUDNN_TENSOR_NHWC) == "CUDNN_TENSOR_NHWC");
  }

  TEST_CASE("math: fp32 data keeps FMA / TF32; half data asks for tensor ops in both modes") {
    CHECK(initial_math(MathMode::fp32, DType::fp32) == CUDNN_FMA_MATH);
    CHECK(initial_math(MathMode::tf32, DType::fp32) == CUDNN_DEFAULT_MATH);
    for (const DType dtype : {DType::fp16, DType::bf16})
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        CHECK(initial_math(math, dtype) == CUDNN_TENSOR_OP_MATH);
        CHECK(ranked_math(math, dtype) == RankedMath::entry_own);
      }
    CHECK(ranked_math(MathMode::fp32, DType::fp32) == RankedMath::fma_only);
    CHECK(ranked_math(MathMode::tf32, DType::fp32) == RankedMath::entry_own);
  }

  TEST_CASE("math used: fp32 for half data whatever ran; fp32 data as before") {
    for (const DType dtype : {DType::fp16, DType::bf16})
      for (const cudnnMathType_t ran : {CUDNN_TENSOR_OP_MATH, CUDNN_DEFAULT_MATH, CUDNN_FMA_MATH})
        for (const bool disabled : {false, true}) CHECK(cudnn_math_used(dtype, ran, disabled) == MathMode::fp32);
    CHECK(cudnn_math_used(DType::fp32, CUDNN_FMA_MATH, false) == MathMode::fp32);
    CHECK(cudnn_math_used(DType::fp32, CUDNN_DEFAULT_MATH, false) == MathMode::tf32);
    CHECK(cudnn_math_used(DType::fp32, CUDNN_TENSOR_OP_MATH, false) == MathMode::tf32);
    CHECK(cudnn_math_used(DType::fp32, CUDNN_TENSOR_OP_MATH, true) == MathMode::fp32);  // NVIDIA_TF32_OVERRIDE=0
  }

  TEST_CASE("half data under --math fp32 keeps tensor-op entries, each under its own math type") {
    std::vector<cudnnMathType_t> asked;
    const WorkspaceQueryFn query = [&asked](int, cudnnMathType_t math) {
      asked.push_back(math);
      return WorkspaceQuery{};
    };
    const std::vector<RankedAlgo> ranked = {
        {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_STATUS_SUCCESS, 0.1f, 0, CUDNN_TENSOR_OP_MATH},
        {CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_STATUS_SUCCESS, 0.2f, 0, CUDNN_DEFAULT_MATH},
    };
    const Selection s = select_ranked(ranked, query, CudnnApi::forward, std::int64_t{1} << 30,
                                      ranked_math(MathMode::fp32, DType::fp16), CUDNN_TENSOR_OP_MATH, "heuristic");
    REQUIRE(s.choice.has_value());
    CHECK(s.choice->algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK(s.choice->math == CUDNN_TENSOR_OP_MATH);
    REQUIRE(s.alternatives.size() == 1);
    CHECK(s.alternatives[0].math == CUDNN_DEFAULT_MATH);
    CHECK(asked == std::vector<cudnnMathType_t>{CUDNN_TENSOR_OP_MATH, CUDNN_DEFAULT_MATH});
  }

  TEST_CASE("a loaded cuDNN older than the headers is flagged: NVIDIA's x.z-built-runs-on-x.y-only-if-y>=z rule") {
    CHECK(cudnn_version_text(91900) == "9.19.0");
    CHECK(cudnn_version_text(90100) == "9.1.0");
    CHECK(cudnn_version_text(8907) == "8.9.7");
    // Same or newer minor of the same major: compatible, nothing said.
    CHECK_FALSE(cudnn_version_warning(91900, 91900).has_value());
    CHECK_FALSE(cudnn_version_warning(91900, 91901).has_value());
    CHECK_FALSE(cudnn_version_warning(91900, 92600).has_value());
    CHECK_FALSE(cudnn_version_warning(91902, 91900).has_value());  // patches do not count
    // An older minor (the visit: built with 9.19 headers, torch's wheel loads 9.1 to 9.10).
    for (const std::size_t loaded : {90000, 90100, 91000, 91800}) {
      CAPTURE(loaded);
      const auto warning = cudnn_version_warning(91900, loaded);
      REQUIRE(warning.has_value());
      CHECK(warning->find("cuDNN " + cudnn_version_text(loaded) + " is loaded, older than the 9.19.0 headers") !=
            std::string::npos);
    }
    // Another major either way.
    CHECK(cudnn_version_warning(91900, 8907).has_value());
    CHECK(cudnn_version_warning(91900, 100000).has_value());
  }
}
