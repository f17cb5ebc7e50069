// How problems are expressed to cuDNN (pure arithmetic; runs without a device).
#include <doctest/doctest.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_shape.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using namespace kbench::gpu;

namespace {

ConvProblem conv1d(std::int64_t length, std::int64_t kernel, std::int64_t stride, std::int64_t dilation,
                   std::int64_t pad_before, std::int64_t pad_after) {
  ConvProblem p;
  p.spatial_rank = 1;
  p.batch = 1;
  p.in_channels = 3;
  p.out_channels = 5;
  p.input = Dims{{length, 1, 1}};
  p.kernel = Dims{{kernel, 1, 1}};
  p.stride = Dims{{stride, 1, 1}};
  p.dilation = Dims{{dilation, 1, 1}};
  p.pad_before = Dims{{pad_before, 0, 0}};
  p.pad_after = Dims{{pad_after, 0, 0}};
  return p;
}

ConvProblem transposed1d(std::int64_t pad_before, std::int64_t pad_after, std::int64_t output_padding) {
  ConvProblem p = conv1d(5, 3, 2, 1, pad_before, pad_after);
  p.op = OpKind::conv_transpose;
  p.batch = 2;
  p.in_channels = 4;
  p.out_channels = 6;
  p.groups = 2;
  p.output_padding = Dims{{output_padding, 0, 0}};
  return p;
}

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("a grouped, strided, dilated 2D convolution maps one to one onto cuDNN's forward convolution") {
    ConvProblem p;
    p.batch = 2;
    p.in_channels = 4;
    p.out_channels = 6;
    p.groups = 2;
    p.input = Dims{{9, 7, 1}};
    p.kernel = Dims{{3, 2, 1}};
    p.stride = Dims{{2, 1, 1}};
    p.dilation = Dims{{1, 2, 1}};
    p.pad_before = Dims{{1, 0, 0}};
    p.pad_after = Dims{{1, 0, 0}};
    REQUIRE(cudnn_expressible(p).ok);
    const CudnnConvShape s = cudnn_shape(p);
    CHECK(s.nb_dims == 4);
    CHECK_FALSE(s.backward_data);
    CHECK(s.forward_input == std::vector<int>{2, 4, 9, 7});
    CHECK(s.filter == std::vector<int>{6, 2, 3, 2});
    CHECK(s.forward_output == std::vector<int>{2, 6, 5, 5});
    CHECK(s.bias == std::vector<int>{1, 6, 1, 1});
    CHECK(s.pad == std::vector<int>{1, 0});
    CHECK(s.stride == std::vector<int>{2, 1});
    CHECK(s.dilation == std::vector<int>{1, 2});
    CHECK(s.groups == 2);
  }

  TEST_CASE("a 1D convolution runs as 2D with a unit height and a neutral first dimension") {
    const ConvProblem p = conv1d(20, 3, 3, 4, 0, 0);
    REQUIRE(cudnn_expressible(p).ok);
    const CudnnConvShape s = cudnn_shape(p);
    CHECK(s.nb_dims == 4);
    CHECK(s.forward_input == std::vector<int>{1, 3, 1, 20});
    CHECK(s.filter == std::vector<int>{5, 3, 1, 3});
    CHECK(s.forward_output == std::vector<int>{1, 5, 1, 4});  // (20 - 9) / 3 + 1
    CHECK(s.pad == std::vector<int>{0, 0});
    CHECK(s.stride == std::vector<int>{1, 3});
    CHECK(s.dilation == std::vector<int>{1, 4});
  }

  TEST_CASE("a 3D convolution uses 5-dimensional descriptors") {
    ConvProblem p;
    p.spatial_rank = 3;
    p.in_channels = 2;
    p.out_channels = 3;
    p.input = Dims{{4, 5, 6}};
    p.kernel = Dims{{3, 3, 3}};
    p.pad_before = Dims{{1, 1, 1}};
    p.pad_after = Dims{{1, 1, 1}};
    p.bias = true;
    REQUIRE(cudnn_expressible(p).ok);
    const CudnnConvShape s = cudnn_shape(p);
    CHECK(s.nb_dims == 5);
    CHECK(s.forward_output == std::vector<int>{1, 3, 4, 5, 6});
    CHECK(s.bias == std::vector<int>{1, 3, 1, 1, 1});
    CHECK(s.pad.size() == 3);
  }

  TEST_CASE("asymmetric padding is taken only where symmetric padding gives exactly the same output") {
    // pad 1/0, stride 2: symmetric padding 1 adds a column the stride never reaches.
    const ConvProblem exact = conv1d(10, 3, 2, 1, 1, 0);
    REQUIRE(cudnn_expressible(exact).ok);
    CHECK(cudnn_shape(exact).pad == std::vector<int>{0, 1});

    const ConvProblem inexact = conv1d(10, 3, 1, 1, 0, 1);
    const kbench::Support s = cudnn_expressible(inexact);
    CHECK_FALSE(s.ok);
    CHECK(s.reason.find("asymmetric padding 0/1") != std::string::npos);
    CHECK(s.reason.find("gives output extent 8, not 9") != std::string::npos);
  }

  TEST_CASE("a transposed convolution is backward data of the forward convolution from our output to our input") {
    const ConvProblem p = transposed1d(1, 1, 1);  // output (5-1)*2 - 2 + 2 + 1 + 1 = 10
    REQUIRE(p.output_extent(0) == 10);
    REQUIRE(cudnn_expressible(p).ok);
    const CudnnConvShape s = cudnn_shape(p);
    CHECK(s.backward_data);
    CHECK(s.forward_input == std::vector<int>{2, 6, 1, 10});  // dx: our output
    CHECK(s.forward_output == std::vector<int>{2, 4, 1, 5});  // dy: our input
    CHECK(s.filter == std::vector<int>{4, 3, 1, 3});          // PyTorch's [C_in, C_out/g, k]
    CHECK(s.bias == std::vector<int>{1, 6, 1, 1});
    CHECK(s.pad == std::vector<int>{0, 1});
    CHECK(s.groups == 2);
  }

  TEST_CASE("transposed padding is expressible when pad_before - pad_after + output_padding lies in [0, stride)") {
    CHECK(cudnn_expressible(transposed1d(2, 1, 0)).ok);                  // 1
    CHECK(cudnn_expressible(transposed1d(1, 1, 1)).ok);                  // 1
    CHECK(cudnn_expressible(transposed1d(1, 1, 0)).ok);                  // 0
    const kbench::Support s = cudnn_expressible(transposed1d(1, 2, 0));  // -1
    CHECK_FALSE(s.ok);
    CHECK(s.reason.find("backward data") != std::string::npos);
  }

  TEST_CASE("what the backend does not run is refused with a reason") {
    ConvProblem half = conv1d(10, 3, 1, 1, 0, 0);
    half.dtype = kbench::DType::fp16;
    CHECK(cudnn_expressible(half).reason.find("fp32") != std::string::npos);

    ConvProblem huge = conv1d(1 << 20, 3, 1, 1, 0, 0);
    huge.batch = 1024;  // 3 x 2^30 input elements
    const kbench::Support s = cudnn_expressible(huge);
    CHECK_FALSE(s.ok);
    CHECK(s.reason.find("2^31-1") != std::string::npos);
  }

  TEST_CASE("packed strides are row-major") {
    CHECK(packed_strides({2, 3, 4, 5}) == std::vector<int>{60, 20, 5, 1});
    CHECK(packed_strides({7}) == std::vector<int>{1});
  }

  TEST_CASE("cuDNN algorithm names parse in short and full form, per call") {
    CHECK(parse_algorithm(false, "implicit_precomp_gemm") == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK(parse_algorithm(false, "CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING") == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING);
    CHECK(parse_algorithm(true, "ALGO_1") == CUDNN_CONVOLUTION_BWD_DATA_ALGO_1);
    CHECK(parse_algorithm(true, "CUDNN_CONVOLUTION_BWD_DATA_ALGO_0") == CUDNN_CONVOLUTION_BWD_DATA_ALGO_0);
    CHECK(parse_algorithm(true, "cudnn_convolution_bwd_data_algo_winograd") ==
          CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD);
    CHECK_FALSE(parse_algorithm(true, "IMPLICIT_GEMM").has_value());  // a forward name
    CHECK_FALSE(parse_algorithm(false, "ALGO_1").has_value());
    CHECK_FALSE(parse_algorithm(false, "").has_value());

    CHECK(forward_algorithm_names().size() == CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    CHECK(backward_data_algorithm_names().size() == CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    for (const bool backward : {false, true}) {
      const auto names = backward ? backward_data_algorithm_names() : forward_algorithm_names();
      for (const auto& name : names) {
        const auto algo = parse_algorithm(backward, name);
        REQUIRE(algo.has_value());
        CHECK(algorithm_name(backward, *algo) == name);
      }
    }
    CHECK(math_type_name(CUDNN_FMA_MATH) == "CUDNN_FMA_MATH");
  }
}
