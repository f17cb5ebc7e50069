// cuDNN's graph API without a device (kernels/cudnn/graph/): the graph's attributes from CudnnConvShape
// for every (op, pass), dtype and layout, checked against the legacy shape, kbench's buffers and
// problem/memory_layout.hpp; the variant names' grammar and round trip; the math policy and each
// config's verdict with the frontend's answers faked.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cudnn/cudnn_shape.hpp"
#include "cudnn/graph/graph_attributes.hpp"
#include "cudnn/graph/graph_selection.hpp"
#include "cudnn/graph/graph_variant.hpp"
#include "cudnn/graph/knob_names.hpp"
#include "problem/conv_pass.hpp"
#include "problem/memory_layout.hpp"
#include "problem_factory.hpp"

using kbench::ConvProblem;
using kbench::Dims;
using kbench::DType;
using kbench::Layout;
using kbench::MathMode;
using kbench::OpKind;
using kbench::Operand;
using kbench::Pass;
using namespace kbench::gpu;

namespace {

// A grouped, strided, padded problem of the given rank, expressible to cuDNN.
ConvProblem problem(OpKind op, Pass pass, int rank, DType dtype, Layout layout, bool bias) {
  const Dims input = rank == 1 ? Dims{{9, 1, 1}} : rank == 2 ? Dims{{7, 6, 1}} : Dims{{5, 4, 6}};
  const Dims kernel = rank == 1 ? Dims{{3, 1, 1}} : rank == 2 ? Dims{{3, 2, 1}} : Dims{{2, 3, 3}};
  const Dims stride = rank == 1 ? Dims{{2, 1, 1}} : rank == 2 ? Dims{{2, 1, 1}} : Dims{{1, 2, 1}};
  const Dims dilation = rank == 1 ? Dims{{1, 1, 1}} : rank == 2 ? Dims{{1, 2, 1}} : Dims{{1, 1, 1}};
  const Dims pad = rank == 1 ? Dims{{1, 0, 0}} : rank == 2 ? Dims{{1, 1, 0}} : Dims{{1, 1, 1}};
  ConvProblem p = ConvProblem{.op = op, .spatial_rank = rank, .batch = 2, .in_channels = 4, .out_channels = 6,
                              .groups = 2, .input = input, .kernel = kernel, .stride = stride, .dilation = dilation,
                              .pad_before = pad, .pad_after = pad, .bias = bias};
  p.pass = pass;
  p.dtype = dtype;
  p.layout = layout;
  return p;
}

std::vector<std::int64_t> widen(const std::vector<int>& v) { return {v.begin(), v.end()}; }

// Every index of `dims`, through `strides`, lands where memory_offset puts the logical element of `operand`.
void check_memory(const ConvProblem& p, const GraphTensor& t, Operand operand) {
  CAPTURE(t.name);
  std::vector<std::int64_t> at(t.dims.size(), 0);
  std::int64_t logical = 0;  // row-major over NCHW-ordered dims = the logical index (a unit H adds nothing)
  for (;;) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < t.dims.size(); ++d) offset += at[d] * t.strides[d];
    REQUIRE(offset == kbench::memory_offset(p, operand, logical));
    ++logical;
    std::size_t d = t.dims.size();
    while (d > 0 && ++at[d - 1] == t.dims[d - 1]) at[--d] = 0;
    if (d == 0) break;
  }
  CHECK(logical == kbench::operand_elements(p, operand));
}

cudnnDataType_t io_type_of(DType dtype) {
  return dtype == DType::fp16 ? CUDNN_DATA_HALF : dtype == DType::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

struct NodeFor {
  OpKind op;
  Pass pass;
  GraphConvNode node;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("the graph's node, operands and buffers follow the legacy call for every (op, pass)") {
    const OpKind conv = OpKind::conv;
    const OpKind tconv = OpKind::conv_transpose;
    // As cudnn_pass.hpp maps the calls: a conv_transpose's forward is dgrad, its backward data fprop.
    const NodeFor table[] = {
        {conv, Pass::forward, GraphConvNode::fprop},          {conv, Pass::backward_data, GraphConvNode::dgrad},
        {conv, Pass::backward_weights, GraphConvNode::wgrad}, {tconv, Pass::forward, GraphConvNode::dgrad},
        {tconv, Pass::backward_data, GraphConvNode::fprop},   {tconv, Pass::backward_weights, GraphConvNode::wgrad},
    };
    for (const NodeFor& e : table)
      for (const bool bias : {false, true}) {
        const ConvProblem p = problem(e.op, e.pass, 2, DType::fp32, Layout::nchw, bias);
        CAPTURE(kbench::to_string(e.op));
        CAPTURE(kbench::to_string(e.pass));
        CAPTURE(bias);
        REQUIRE(cudnn_expressible(p).ok);
        const CudnnConvShape s = cudnn_shape(p);
        const CudnnGraphAttributes g = cudnn_graph_attributes(s);
        CHECK(g.node == e.node);

        // What the graph writes is the pass's computed tensor; its bound inputs are what the pass reads.
        const std::vector<Operand> computed = kbench::computed_operands(p);
        REQUIRE(graph_output(g).buffer.has_value());
        CHECK(*graph_output(g).buffer == computed.front());
        // The operands in the frontend's order, with the legacy descriptors' dims for each.
        const Operand forward_input = e.op == conv ? Operand::input : Operand::output;
        const Operand forward_output = e.op == conv ? Operand::output : Operand::input;
        switch (e.node) {
          case GraphConvNode::fprop:
            CHECK(g.first.name == "X");
            CHECK(g.first.buffer == forward_input);
            CHECK(g.first.dims == widen(s.forward_input));
            CHECK(g.second.buffer == Operand::weight);
            CHECK(g.result.dims == widen(s.forward_output));
            break;
          case GraphConvNode::dgrad:
            CHECK(g.first.name == "DY");
            CHECK(g.first.buffer == forward_output);
            CHECK(g.first.dims == widen(s.forward_output));
            CHECK(g.second.buffer == Operand::weight);
            CHECK(g.result.dims == widen(s.forward_input));
            break;
          case GraphConvNode::wgrad:
            CHECK(g.first.name == "DY");
            CHECK(g.first.buffer == forward_output);
            CHECK(g.second.name == "X");
            CHECK(g.second.buffer == forward_input);
            CHECK(g.second.dims == widen(s.forward_input));
            CHECK(g.result.buffer == Operand::weight);
            CHECK(g.result.dims == widen(s.filter));
            break;
        }
        CHECK(g.pre_padding == widen(s.pad));
        CHECK(g.post_padding == widen(s.pad));
        CHECK(g.stride == widen(s.stride));
        CHECK(g.dilation == widen(s.dilation));

        // The forward bias is fused (result virtual, fp32, the sum in the output's buffer); grad_bias is not in
        // the graph; backward data has no bias.
        const bool fused = bias && e.pass == Pass::forward;
        CHECK(g.bias.has_value() == fused);
        CHECK(g.biased.has_value() == fused);
        CHECK(g.result.is_virtual() == fused);
        CHECK(g.grad_bias_after == (bias && e.pass == Pass::backward_weights));
        if (fused) {
          CHECK(g.bias->buffer == Operand::bias);
          CHECK(g.bias->dims == widen(s.bias));
          CHECK(g.bias->strides == widen(s.bias_strides));
          CHECK(g.result.uid == 0);
          CHECK(g.result.data_type == CUDNN_DATA_FLOAT);
          CHECK(g.biased->dims == g.result.dims);
          CHECK(g.biased->strides == g.result.strides);
        }

        // One UID per buffer, none shared, each bound tensor's UID its buffer's.
        std::set<std::int64_t> uids;
        std::set<Operand> buffers;
        for (const GraphTensor* t : bound_tensors(g)) {
          CHECK(t->uid == graph_uid(*t->buffer));
          CHECK(t->uid > 0);
          uids.insert(t->uid);
          buffers.insert(*t->buffer);
        }
        CHECK(uids.size() == bound_tensors(g).size());
        CHECK(buffers.size() == bound_tensors(g).size());
        CHECK(bound_tensors(g).size() == (fused ? 4u : 3u));
      }
  }

  TEST_CASE("every tensor of the graph describes kbench's memory, in every dtype, layout and rank") {
    for (const OpKind op : {OpKind::conv, OpKind::conv_transpose})
      for (const Pass pass : {Pass::forward, Pass::backward_data, Pass::backward_weights})
        for (const DType dtype : {DType::fp32, DType::fp16, DType::bf16})
          for (const Layout layout : {Layout::nchw, Layout::nhwc})
            for (int rank = 1; rank <= 3; ++rank) {
              const ConvProblem p = problem(op, pass, rank, dtype, layout, true);
              CAPTURE(kbench::to_string(op));
              CAPTURE(kbench::to_string(pass));
              CAPTURE(kbench::to_string(dtype));
              CAPTURE(kbench::to_string(layout));
              CAPTURE(rank);
              REQUIRE(cudnn_expressible(p).ok);
              const CudnnGraphAttributes g = cudnn_graph_attributes(cudnn_shape(p));
              CHECK(g.io_type == io_type_of(dtype));
              CHECK(g.compute_type == CUDNN_DATA_FLOAT);
              CHECK(g.intermediate_type == CUDNN_DATA_FLOAT);
              CHECK(g.channels_last == (layout == Layout::nhwc));
              const std::size_t nb_dims = rank == 3 ? 5 : 4;  // 1D runs as 2D with a unit height
              CHECK(g.pre_padding.size() == nb_dims - 2);
              for (const GraphTensor* t : bound_tensors(g)) {
                CAPTURE(t->name);
                CHECK(t->dims.size() == nb_dims);
                CHECK(t->strides.size() == nb_dims);
                CHECK(t->data_type == io_type_of(dtype));
                check_memory(p, *t, *t->buffer);
              }
            }
  }

  TEST_CASE("graph variant names round-trip, in canonical knob order") {
    const auto round_trip = [](const std::string& name) {
      const ParsedGraphVariant parsed = parse_graph_variant(name);
      REQUIRE_MESSAGE(parsed.variant.has_value(), parsed.error);
      return graph_variant_name(*parsed.variant);
    };
    for (const std::string name : {"graph", "engine/0", "engine/12", "engine/12:TILEK=2,SPLIT_K_SLC=1",
                                   "engine/7:SWIZZLE=0,TILE_SIZE=-1,KNOB_77=3", "engine/9:WARPS_N=4"})
      CHECK(round_trip(name) == name);
    // Any case in, the canonical name out; knobs ordered by type.
    CHECK(round_trip("GRAPH") == "graph");
    CHECK(round_trip("Engine/12:split_k_slc=1,tilek=2") == "engine/12:TILEK=2,SPLIT_K_SLC=1");
    const ParsedGraphVariant parsed = parse_graph_variant("engine/12:SPLIT_K_SLC=1,TILEK=2");
    REQUIRE(parsed.variant.has_value());
    REQUIRE(parsed.variant->config.has_value());
    CHECK(parsed.variant->config->engine == 12);
    CHECK(parsed.variant->config->knobs == std::vector<std::pair<std::int64_t, std::int64_t>>{{6, 2}, {9, 1}});
    CHECK_FALSE(parse_graph_variant("graph").variant->config.has_value());
    CHECK(knob_choices_text(*parsed.variant->config) == "TILEK=2,SPLIT_K_SLC=1");

    // Random configs: name, then parse, gives the config back.
    std::mt19937_64 rng(24);
    for (int trial = 0; trial < 500; ++trial) {
      EngineConfigName config;
      config.engine = std::uniform_int_distribution<std::int64_t>(0, 1 << 20)(rng);
      std::set<std::int64_t> types;
      const int count = std::uniform_int_distribution<int>(0, 5)(rng);
      for (int k = 0; k < count; ++k) {
        const bool known = rng() % 4 != 0;
        types.insert(known ? kKnobNames[rng() % kKnobNames.size()].type
                           : std::uniform_int_distribution<std::int64_t>(33, 999)(rng));
      }
      for (const std::int64_t type : types)
        config.knobs.emplace_back(type, std::uniform_int_distribution<std::int64_t>(-3, 1 << 16)(rng));
      const std::string name = engine_config_name(config);
      CAPTURE(name);
      const ParsedGraphVariant back = parse_graph_variant(name);
      REQUIRE_MESSAGE(back.variant.has_value(), back.error);
      CHECK(back.variant->config == config);
    }
  }

  TEST_CASE("malformed graph variants are refused with the grammar") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"engine/", "engine index ''"},
        {"engine/x", "engine index 'x'"},
        {"engine/-1", "engine index '-1'"},
        {"engine/+3", "engine index '+3'"},
        {"engine/1 2", "engine index '1 2'"},
        {"engine/99999999999999999999", "not a non-negative integer"},
        {"engine/12:", "no knob choice after ':'"},
        {"engine/12:TILEK", "'TILEK' is not KNOB=value"},
        {"engine/12:TILEK=", "value of knob TILEK"},
        {"engine/12:TILEK=a", "value of knob TILEK"},
        {"engine/12:TILEK=1.5", "value of knob TILEK"},
        {"engine/12:NOPE=1", "unknown knob 'NOPE'"},
        {"engine/12:KNOB_x=1", "unknown knob 'KNOB_x'"},
        {"engine/12:TILEK=1,tilek=2", "knob TILEK is given twice"},
        {"engine/12:TILEK=1,", "'' is not KNOB=value"},
        {"graphs", "neither 'graph' nor 'engine/...'"},
    };
    for (const auto& [name, why] : cases) {
      CAPTURE(name);
      const ParsedGraphVariant parsed = parse_graph_variant(name);
      CHECK_FALSE(parsed.variant.has_value());
      CHECK_MESSAGE(contains(parsed.error, why), parsed.error);
      CHECK(contains(parsed.error, std::string(kGraphVariantGrammar)));
    }
    // What the backend routes to the graph API: "graph" and anything under "engine/", malformed included.
    for (const char* name : {"graph", "GRAPH", "engine/12", "Engine/x", "engine/"}) CHECK(is_graph_variant(name));
    for (const char* name : {"IMPLICIT_GEMM", "ALGO_1", "graphs", "engine", "", "all"}) CHECK_FALSE(is_graph_variant(name));
  }

  TEST_CASE("knob names: the table's names and unknown types both round-trip") {
    std::set<std::int64_t> types;
    std::set<std::string_view> names;
    for (const KnobName& k : kKnobNames) {
      CHECK(knob_name(k.type) == k.name);
      CHECK(knob_type(k.name) == k.type);
      types.insert(k.type);
      names.insert(k.name);
    }
    CHECK(types.size() == kKnobNames.size());
    CHECK(names.size() == kKnobNames.size());
    CHECK(knob_name(500) == "KNOB_500");
    CHECK(knob_type("KNOB_500") == 500);
    CHECK(knob_type("knob_6") == 6);
    CHECK_FALSE(knob_type("KNOB_").has_value());
    CHECK_FALSE(knob_type("TILE").has_value());
  }

  TEST_CASE("the math policy rules out TF32 configs for fp32 under --math fp32, and down-converting ones always") {
    const GraphMathPolicy strict = graph_math_policy(MathMode::fp32, DType::fp32);
    const GraphMathPolicy tf32 = graph_math_policy(MathMode::tf32, DType::fp32);
    const std::vector<std::string> tensor_core = {"TENSOR_CORE"};
    const std::vector<std::string> down_convert = {"DOWN_CONVERT_INPUTS", "TENSOR_CORE"};
    CHECK(contains(excluded_by(tensor_core, strict), "--math fp32 allows FMA math only"));
    CHECK(excluded_by(tensor_core, tf32).empty());
    CHECK(excluded_by({"NONDETERMINISTIC"}, strict).empty());
    CHECK(excluded_by({}, strict).empty());
    CHECK(contains(excluded_by(down_convert, tf32), "DOWN_CONVERT_INPUTS"));
    for (const DType half : {DType::fp16, DType::bf16})
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        const GraphMathPolicy policy = graph_math_policy(math, half);
        CHECK(excluded_by(tensor_core, policy).empty());  // half data: tensor cores accumulate in fp32
        CHECK_FALSE(excluded_by(down_convert, policy).empty());
      }

    GraphEngineConfig tc;
    tc.numerical_notes = tensor_core;
    GraphEngineConfig fma;
    CHECK(graph_math_used(DType::fp32, tc, false) == MathMode::tf32);
    CHECK(graph_math_used(DType::fp32, tc, true) == MathMode::fp32);  // NVIDIA_TF32_OVERRIDE=0
    CHECK(graph_math_used(DType::fp32, fma, false) == MathMode::fp32);
    CHECK(graph_math_used(DType::fp16, tc, false) == MathMode::fp32);
    CHECK(graph_math_used(DType::bf16, tc, false) == MathMode::fp32);
  }

  TEST_CASE("a config's verdict: excluded without a build, the build's failure, the workspace limit") {
    GraphEngineConfig config;
    config.name = {12, {{6, 2}}};
    int builds = 0;
    const auto built = [&] {
      ++builds;
      return std::optional<std::string>();
    };
    const auto fixed = [](std::int64_t bytes) { return [bytes] { return bytes; }; };

    GraphConfigVerdict v = judge_graph_config(config, built, fixed(1024), 4096);
    REQUIRE(v.workspace_bytes.has_value());
    CHECK(*v.workspace_bytes == 1024);
    CHECK(builds == 1);
    v = judge_graph_config(config, built, fixed(4096), 4096);
    CHECK(v.workspace_bytes == 4096);  // the limit itself fits

    v = judge_graph_config(config, built, fixed(8192), 4096);
    CHECK_FALSE(v.workspace_bytes.has_value());
    CHECK(contains(v.reason, "engine/12:TILEK=2: needs"));
    CHECK(contains(v.reason, "over the limit"));
    v = judge_graph_config(config, built, fixed(0), -1);
    CHECK_FALSE(v.workspace_bytes.has_value());
    v = judge_graph_config(config, built, fixed(-5), 4096);
    CHECK(contains(v.reason, "impossible workspace"));

    v = judge_graph_config(config, [] { return std::optional<std::string>("GRAPH_EXECUTION_PLAN_CREATION_FAILED: x"); },
                           fixed(0), 4096);
    CHECK_FALSE(v.workspace_bytes.has_value());
    CHECK(v.reason == "engine/12:TILEK=2: GRAPH_EXECUTION_PLAN_CREATION_FAILED: x");

    config.excluded = "ruled out by its numerical note TENSOR_CORE";
    builds = 0;
    v = judge_graph_config(config, built, fixed(0), 4096);
    CHECK_FALSE(v.workspace_bytes.has_value());
    CHECK(builds == 0);  // never built: the frontend would refuse it anyway
    CHECK(v.reason == "engine/12:TILEK=2: ruled out by its numerical note TENSOR_CORE");
  }
}
