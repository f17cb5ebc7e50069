#include "cudnn/graph/graph_attributes.hpp"

#include <algorithm>

#include "cudnn/cudnn_types.hpp"

namespace kbench::gpu {

namespace {

std::vector<std::int64_t> widen(const std::vector<int>& values) { return {values.begin(), values.end()}; }

GraphTensor bound(std::string name, Operand buffer, const std::vector<int>& dims, const std::vector<int>& strides,
                  cudnnDataType_t type) {
  return {std::move(name), graph_uid(buffer), buffer, widen(dims), widen(strides), type};
}

GraphConvNode node_for(CudnnApi api) {
  switch (api) {
    case CudnnApi::forward: return GraphConvNode::fprop;
    case CudnnApi::backward_data: return GraphConvNode::dgrad;
    case CudnnApi::backward_filter: break;
  }
  return GraphConvNode::wgrad;
}

}  // namespace

std::int64_t graph_uid(Operand buffer) { return 1 + static_cast<std::int64_t>(buffer); }

CudnnGraphAttributes cudnn_graph_attributes(const CudnnConvShape& s) {
  CudnnGraphAttributes g;
  g.node = node_for(s.call.api);
  g.channels_last = s.channels_last;
  g.io_type = cudnn_data_type(s.dtype);
  g.compute_type = cudnn_compute_type(s.dtype);
  g.intermediate_type = CUDNN_DATA_FLOAT;
  const cudnnDataType_t io = g.io_type;
  // The graph API has no filter format: the strides say KRSC for channels last.
  const std::vector<int> filter_strides = layout_strides(s.filter, s.channels_last);
  const GraphTensor w = bound("W", Operand::weight, s.filter, filter_strides, io);
  const auto input_side = [&](const char* name) {
    return bound(name, s.call.forward_input, s.forward_input, s.forward_input_strides, io);
  };
  const auto output_side = [&](const char* name) {
    return bound(name, s.call.forward_output, s.forward_output, s.forward_output_strides, io);
  };
  switch (g.node) {
    case GraphConvNode::fprop:
      g.first = input_side("X");
      g.second = w;
      g.result = output_side("Y");
      break;
    case GraphConvNode::dgrad:
      g.first = output_side("DY");
      g.second = w;
      g.result = input_side("DX");
      break;
    case GraphConvNode::wgrad:
      g.first = output_side("DY");
      g.second = input_side("X");
      g.result = bound("DW", Operand::weight, s.filter, filter_strides, io);
      break;
  }
  g.pre_padding = widen(s.pad);
  g.post_padding = widen(s.pad);  // symmetric: cudnn_expressible's rule, as for the legacy descriptors
  g.stride = widen(s.stride);
  g.dilation = widen(s.dilation);

  if (s.call.bias == BiasStep::add_to_written) {
    g.bias = bound("B", Operand::bias, s.bias, s.bias_strides, io);
    GraphTensor sum = g.result;
    sum.name = g.result.name + "_plus_B";
    g.biased = sum;
    // The convolution's sum stays in fp32 until the add: one rounding to the data type, not two.
    g.result.name += "_conv";
    g.result.uid = 0;
    g.result.buffer.reset();
    g.result.data_type = g.intermediate_type;
  }
  g.grad_bias_after = s.call.bias == BiasStep::gradient;
  return g;
}

const GraphTensor& graph_output(const CudnnGraphAttributes& g) { return g.biased ? *g.biased : g.result; }

std::vector<const GraphTensor*> bound_tensors(const CudnnGraphAttributes& g) {
  std::vector<const GraphTensor*> out;
  for (const GraphTensor* t : {&g.first, &g.second, &g.result})
    if (!t->is_virtual()) out.push_back(t);
  if (g.bias) out.push_back(&*g.bias);
  if (g.biased) out.push_back(&*g.biased);
  std::sort(out.begin(), out.end(), [](const GraphTensor* a, const GraphTensor* b) { return a->uid < b->uid; });
  return out;
}

std::string graph_node_name(GraphConvNode node) {
  switch (node) {
    case GraphConvNode::fprop: return "conv_fprop";
    case GraphConvNode::dgrad: return "conv_dgrad";
    case GraphConvNode::wgrad: break;
  }
  return "conv_wgrad";
}

}  // namespace kbench::gpu
