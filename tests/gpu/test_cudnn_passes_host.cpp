// The cuDNN backend's passes without a device (cudnn_pass.hpp, cudnn_algorithms.hpp,
// cudnn_algo_select.hpp): which call and which buffers every (op, pass, bias) uses, checked against
// what the pass reads and writes (problem/conv_pass.hpp, data/host_tensors.hpp); the three calls'
// algorithm names; selection and workspace accounting with backward-filter answers faked.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_algorithms.hpp"
#include "cudnn/cudnn_pass.hpp"
#include "cudnn/cudnn_shape.hpp"
#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem_factory.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::OpKind;
using kbench::Operand;
using kbench::Pass;
using namespace kbench::gpu;

namespace {

// A grouped, strided 2D problem of either op, expressible to cuDNN.
ConvProblem problem(OpKind op, Pass pass, bool bias) {
  ConvProblem p = ConvProblem{.op = op, .spatial_rank = 2, .batch = 2, .in_channels = 4, .out_channels = 6, .groups = 2,
                              .input = Dims{{9, 7, 1}}, .kernel = Dims{{3, 3, 1}}, .stride = Dims{{2, 1, 1}},
                              .pad_before = Dims{{1, 1, 0}}, .pad_after = Dims{{1, 1, 0}},
                              .output_padding = Dims{{1, 0, 0}}, .bias = bias};
  if (op == OpKind::conv) p.output_padding = Dims{{0, 0, 0}};
  p.pass = pass;
  return p;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Expected {
  OpKind op;
  Pass pass;
  CudnnApi api;
  CudnnTensor written;
};

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("each (op, pass) makes the call the table in cudnn_pass.hpp names") {
    const OpKind conv = OpKind::conv;
    const OpKind tconv = OpKind::conv_transpose;
    const Expected table[] = {
        {conv, Pass::forward, CudnnApi::forward, CudnnTensor::forward_output},
        {conv, Pass::backward_data, CudnnApi::backward_data, CudnnTensor::forward_input},
        {conv, Pass::backward_weights, CudnnApi::backward_filter, CudnnTensor::filter},
        {tconv, Pass::forward, CudnnApi::backward_data, CudnnTensor::forward_input},
        {tconv, Pass::backward_data, CudnnApi::forward, CudnnTensor::forward_output},
        {tconv, Pass::backward_weights, CudnnApi::backward_filter, CudnnTensor::filter},
    };
    for (const Expected& e : table) {
      for (const bool bias : {false, true}) {
        const ConvProblem p = problem(e.op, e.pass, bias);
        CAPTURE(kbench::to_string(e.op));
        CAPTURE(kbench::to_string(e.pass));
        CAPTURE(bias);
        const CudnnCall call = cudnn_call(p);
        CHECK(call.api == e.api);
        CHECK(call.written == e.written);
        // cuDNN's forward convolution maps our input to our output for a conv, the reverse for a conv_transpose.
        CHECK(call.forward_input == (e.op == conv ? Operand::input : Operand::output));
        CHECK(call.forward_output == (e.op == conv ? Operand::output : Operand::input));
        CHECK(buffer_of(call, CudnnTensor::filter) == Operand::weight);

        // What the call writes is the pass's computed tensor; the other two descriptors are exactly
        // what the pass reads (the bias aside).
        const std::vector<Operand> computed = kbench::computed_operands(p);
        CHECK(buffer_of(call, call.written) == computed.front());
        std::vector<Operand> read_by_call;
        for (const CudnnTensor t : {CudnnTensor::forward_input, CudnnTensor::filter, CudnnTensor::forward_output})
          if (t != call.written) read_by_call.push_back(buffer_of(call, t));
        std::vector<Operand> read_by_pass;
        for (const kbench::data::TensorRole role : kbench::data::roles_read(p))
          if (role != kbench::data::TensorRole::bias) read_by_pass.push_back(kbench::data::role_operand(role));
        std::sort(read_by_call.begin(), read_by_call.end());
        std::sort(read_by_pass.begin(), read_by_pass.end());
        CHECK(read_by_call == read_by_pass);

        // The bias: added onto the forward output, reduced from grad_output (our output's buffer)
        // into grad_bias, absent from backward data.
        if (!bias || e.pass == Pass::backward_data) {
          CHECK(call.bias == BiasStep::none);
        } else if (e.pass == Pass::forward) {
          CHECK(call.bias == BiasStep::add_to_written);
          CHECK(call.bias_operand == call.written);
          CHECK(buffer_of(call, call.bias_operand) == Operand::output);
        } else {
          CHECK(call.bias == BiasStep::gradient);
          CHECK(buffer_of(call, call.bias_operand) == Operand::output);
          CHECK(computed == std::vector<Operand>{Operand::weight, Operand::bias});
        }

        // Every pass is expressible where the forward is, and the shape carries the call.
        REQUIRE(cudnn_expressible(p).ok);
        CHECK(cudnn_shape(p).call.api == e.api);
        CHECK(cudnn_shape(p).forward_input == cudnn_shape(problem(e.op, Pass::forward, bias)).forward_input);
      }
    }
    CHECK(api_function(CudnnApi::forward) == "cudnnConvolutionForward");
    CHECK(api_function(CudnnApi::backward_data) == "cudnnConvolutionBackwardData");
    CHECK(api_function(CudnnApi::backward_filter) == "cudnnConvolutionBackwardFilter");
  }

  TEST_CASE("backward-filter algorithms have names of their own, distinct from backward data's") {
    CHECK(backward_filter_algorithm_names().size() == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
    CHECK(all_algorithms(CudnnApi::backward_filter).size() == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
    CHECK(all_algorithms(CudnnApi::backward_data).size() == CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    CHECK(all_algorithms(CudnnApi::forward).size() == CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    CHECK(algorithm_names(CudnnApi::backward_filter) == backward_filter_algorithm_names());

    CHECK(parse_algorithm(CudnnApi::backward_filter, "algo_3") == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3);
    CHECK(parse_algorithm(CudnnApi::backward_filter, "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING") ==
          CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING);
    CHECK(parse_algorithm(CudnnApi::backward_filter, "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0") ==
          CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0);
    // The same short name, a different enum value per call.
    CHECK(parse_algorithm(CudnnApi::backward_filter, "FFT_TILING") == 6);
    CHECK(parse_algorithm(CudnnApi::backward_data, "FFT_TILING") == 3);
    // Each call's full names and numbered algorithms are its own.
    CHECK_FALSE(parse_algorithm(CudnnApi::backward_data, "ALGO_3").has_value());
    CHECK_FALSE(parse_algorithm(CudnnApi::backward_data, "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0").has_value());
    CHECK_FALSE(parse_algorithm(CudnnApi::backward_filter, "CUDNN_CONVOLUTION_BWD_DATA_ALGO_0").has_value());
    CHECK_FALSE(parse_algorithm(CudnnApi::backward_filter, "IMPLICIT_GEMM").has_value());
    CHECK(algorithm_name(CudnnApi::backward_filter, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3) == "ALGO_3");
    CHECK(algorithm_name(CudnnApi::backward_filter, 42) == "ALGO_#42");
  }

  TEST_CASE("backward-filter selection: reasons name the call and its algorithms, workspaces are judged") {
    constexpr std::int64_t limit = std::int64_t{1} << 20;  // 1 MiB
    const std::map<int, WorkspaceQuery> answers = {
        {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, {CUDNN_STATUS_SUCCESS, std::size_t{3} << 20}},  // over the limit
        {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3, {CUDNN_STATUS_SUCCESS, 4096}},
        {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT, {CUDNN_STATUS_NOT_SUPPORTED, 0}},
    };
    const WorkspaceQueryFn query = [&answers](int algo, cudnnMathType_t) {
      const auto it = answers.find(algo);
      return it == answers.end() ? WorkspaceQuery{} : it->second;
    };
    const std::vector<RankedAlgo> ranked = {
        {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, CUDNN_STATUS_SUCCESS, 0.1f, std::size_t{3} << 20, CUDNN_FMA_MATH},
        {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT, CUDNN_STATUS_NOT_SUPPORTED, -1, 0, CUDNN_FMA_MATH},
        {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3, CUDNN_STATUS_SUCCESS, 0.2f, 4096, CUDNN_FMA_MATH},
    };
    const Selection s = select_ranked(ranked, query, CudnnApi::backward_filter, limit, RankedMath::fma_only,
                                      CUDNN_FMA_MATH, "heuristic");
    REQUIRE(s.choice.has_value());
    CHECK(s.choice->algo == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3);
    CHECK(s.choice->workspace_bytes == 4096);
    CHECK(s.alternatives.empty());

    const Selection none = select_ranked({ranked[0], ranked[1]}, query, CudnnApi::backward_filter, limit,
                                         RankedMath::fma_only, CUDNN_FMA_MATH, "heuristic");
    REQUIRE_FALSE(none.choice.has_value());
    CHECK(contains(none.reason, "cuDNN offers no usable backward-filter algorithm"));
    CHECK(contains(none.reason, "ALGO_1: needs"));
    CHECK(contains(none.reason, "FFT: CUDNN_STATUS_NOT_SUPPORTED"));

    const Selection forced = select_forced(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT, query, CudnnApi::backward_filter,
                                           limit, CUDNN_FMA_MATH);
    CHECK_FALSE(forced.choice.has_value());
    CHECK(contains(forced.reason, "cuDNN does not support FFT for this problem"));
    // The exhaustive search's workspace: the largest that fits among all the call's algorithms.
    CHECK(largest_usable_workspace(all_algorithms(CudnnApi::backward_filter), query, CUDNN_FMA_MATH, limit) == 4096);
    CHECK(largest_usable_workspace(all_algorithms(CudnnApi::backward_filter), query, CUDNN_FMA_MATH,
                                   std::int64_t{4} << 20) == std::size_t{3} << 20);
  }
}
