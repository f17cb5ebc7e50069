// How problems are expressed to cuDNN (pure arithmetic; runs without a device).
#include <doctest/doctest.h>

#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_shape.hpp"
#include "problem/memory_layout.hpp"

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
    CHECK(s.call.api == CudnnApi::forward);
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
    CHECK(s.call.api == CudnnApi::backward_data);
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

  TEST_CASE("channels-last strides: C innermost, then the spatial dimensions in order, N outermost") {
    // [N=2, C=3, H=4, W=5] stored [N, H, W, C].
    CHECK(channels_last_strides({2, 3, 4, 5}) == std::vector<int>{60, 1, 15, 3});
    // [N, C, D, H, W] stored [N, D, H, W, C].
    CHECK(channels_last_strides({2, 3, 4, 5, 6}) == std::vector<int>{360, 1, 90, 18, 3});
    // 1D as 2D: the unit height's stride is W * C, so [N, 1, L, C] is [N, L, C].
    CHECK(channels_last_strides({2, 3, 1, 7}) == std::vector<int>{21, 1, 21, 3});
    CHECK(layout_strides({2, 3, 4, 5}, false) == packed_strides({2, 3, 4, 5}));
    CHECK(layout_strides({2, 3, 4, 5}, true) == channels_last_strides({2, 3, 4, 5}));
  }

  TEST_CASE("fp16 and bf16 problems are expressible and keep their dtype; every dtype in both layouts") {
    for (const kbench::DType dtype : {kbench::DType::fp32, kbench::DType::fp16, kbench::DType::bf16})
      for (const kbench::Layout layout : {kbench::Layout::nchw, kbench::Layout::nhwc}) {
        ConvProblem p = transposed1d(1, 1, 1);
        p.dtype = dtype;
        p.layout = layout;
        p.bias = true;
        REQUIRE(cudnn_expressible(p).ok);
        const CudnnConvShape s = cudnn_shape(p);
        CHECK(s.dtype == dtype);
        CHECK(s.channels_last == (layout == kbench::Layout::nhwc));
        CHECK(s.bias_strides == std::vector<int>{6, 1, 1, 1});  // C contiguous: the same in both layouts
      }
  }

  TEST_CASE("an NHWC problem's strides match problem/memory_layout.hpp element for element") {
    // Every dimension index of cuDNN's descriptor, through its strides, lands where memory_offset puts
    // the logical element: the descriptors and kbench's buffers describe the same memory.
    for (int rank = 1; rank <= 3; ++rank)
      for (const OpKind op : {OpKind::conv, OpKind::conv_transpose}) {
        ConvProblem p;
        p.op = op;
        p.layout = kbench::Layout::nhwc;
        p.dtype = kbench::DType::fp16;
        p.spatial_rank = rank;
        p.batch = 2;
        p.in_channels = 4;
        p.out_channels = 6;
        p.groups = 2;
        p.input = rank == 1 ? Dims{{5, 1, 1}} : rank == 2 ? Dims{{4, 3, 1}} : Dims{{3, 2, 4}};
        p.kernel = rank == 1 ? Dims{{3, 1, 1}} : rank == 2 ? Dims{{2, 3, 1}} : Dims{{2, 1, 3}};
        p.pad_before = rank == 1 ? Dims{{1, 0, 0}} : rank == 2 ? Dims{{1, 1, 0}} : Dims{{1, 0, 1}};
        p.pad_after = p.pad_before;
        REQUIRE(cudnn_expressible(p).ok);
        const CudnnConvShape s = cudnn_shape(p);
        CAPTURE(rank);
        CAPTURE(static_cast<int>(op));
        // Our input is cuDNN's x (forward) or dy (backward data); our output the other.
        const auto check = [&](const std::vector<int>& dims, const std::vector<int>& strides, kbench::Operand operand) {
          std::vector<int> at(dims.size(), 0);
          std::int64_t logical = 0;  // row-major over dims = the logical NCHW index (a unit H adds nothing)
          for (;;) {
            std::int64_t offset = 0;
            for (std::size_t d = 0; d < dims.size(); ++d) offset += std::int64_t{at[d]} * strides[d];
            REQUIRE(offset == kbench::memory_offset(p, operand, logical));
            ++logical;
            std::size_t d = dims.size();
            while (d > 0 && ++at[d - 1] == dims[d - 1]) at[--d] = 0;
            if (d == 0) break;
          }
        };
        const bool backward = p.transposed();
        check(backward ? s.forward_output : s.forward_input,
              backward ? s.forward_output_strides : s.forward_input_strides, kbench::Operand::input);
        check(backward ? s.forward_input : s.forward_output,
              backward ? s.forward_input_strides : s.forward_output_strides, kbench::Operand::output);
        // The filter in CUDNN_TENSOR_NHWC: [K, C, k...] dims stored [K, k..., C], as kbench's channels-last weight.
        check(s.filter, channels_last_strides(s.filter), kbench::Operand::weight);
      }
  }

  TEST_CASE("cuDNN algorithm names parse in short and full form, per call") {
    CHECK(parse_algorithm(CudnnApi::forward, "implicit_precomp_gemm") == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK(parse_algorithm(CudnnApi::forward, "CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING") == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING);
    CHECK(parse_algorithm(CudnnApi::backward_data, "ALGO_1") == CUDNN_CONVOLUTION_BWD_DATA_ALGO_1);
    CHECK(parse_algorithm(CudnnApi::backward_data, "CUDNN_CONVOLUTION_BWD_DATA_ALGO_0") == CUDNN_CONVOLUTION_BWD_DATA_ALGO_0);
    CHECK(parse_algorithm(CudnnApi::backward_data, "cudnn_convolution_bwd_data_algo_winograd") ==
          CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD);
    CHECK_FALSE(parse_algorithm(CudnnApi::backward_data, "IMPLICIT_GEMM").has_value());  // a forward name
    CHECK_FALSE(parse_algorithm(CudnnApi::forward, "ALGO_1").has_value());
    CHECK_FALSE(parse_algorithm(CudnnApi::forward, "").has_value());

    CHECK(forward_algorithm_names().size() == CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    CHECK(backward_data_algorithm_names().size() == CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    for (const CudnnApi api : {CudnnApi::forward, CudnnApi::backward_data, CudnnApi::backward_filter}) {
      for (const auto& name : algorithm_names(api)) {
        const auto algo = parse_algorithm(api, name);
        REQUIRE(algo.has_value());
        CHECK(algorithm_name(api, *algo) == name);
      }
    }
    CHECK(math_type_name(CUDNN_FMA_MATH) == "CUDNN_FMA_MATH");
  }
}
