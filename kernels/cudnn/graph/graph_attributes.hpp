#pragma once
// The cuDNN graph that computes a problem's pass, as plain data decided on the host from the legacy
// path's CudnnConvShape, so both APIs see the same tensors (tested without a device:
// tests/gpu/test_cudnn_graph_host.cpp). graph_frontend.cpp lowers it to cudnn-frontend's Graph.
//
// The node follows the call cudnn_pass.hpp maps the pass to: cudnnConvolutionForward -> conv_fprop(X, W),
// BackwardData -> conv_dgrad(DY, W) (a conv_transpose's forward too), BackwardFilter -> conv_wgrad(DY, X).
// Dims are NCHW-ordered ([N, C, spatial...], filters [K, C/groups, k...]: the graph API infers the
// groups from the filter's C); the strides say the layout, the filter's included (KRSC for channels
// last: the graph API has no filter format). Padding is the legacy path's symmetric padding, the
// same expressibility rule. A forward bias is fused: result + B by a pointwise ADD, result then
// virtual (fp32, never in memory). grad_bias is not in the graph: cudnnConvolutionBackwardBias after it.
#include <cudnn.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cudnn/cudnn_shape.hpp"
#include "problem/memory_layout.hpp"

namespace kbench::gpu {

enum class GraphConvNode { fprop, dgrad, wgrad };

struct GraphTensor {
  std::string name;              // "X", "W", "Y", "DY", "DX", "DW", "B", "Y_plus_B" ...
  std::int64_t uid = 0;          // graph_uid(buffer); 0 for a virtual tensor
  std::optional<Operand> buffer;  // kbench's buffer bound to it; none for a virtual tensor
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> strides;
  cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
  bool is_virtual() const { return !buffer.has_value(); }
};

struct CudnnGraphAttributes {
  GraphConvNode node = GraphConvNode::fprop;
  bool channels_last = false;                            // the strides' layout (the shape's)
  cudnnDataType_t io_type = CUDNN_DATA_FLOAT;            // every tensor in memory
  cudnnDataType_t compute_type = CUDNN_DATA_FLOAT;       // the convolution accumulates in fp32
  cudnnDataType_t intermediate_type = CUDNN_DATA_FLOAT;  // a virtual tensor
  // The node's operands in the frontend's argument order: conv_fprop(X, W), conv_dgrad(DY, W), conv_wgrad(DY, X).
  GraphTensor first;
  GraphTensor second;
  GraphTensor result;                 // Y, DX or DW; virtual when the bias is added onto it
  std::optional<GraphTensor> bias;    // B [1, C, 1...], added onto result
  std::optional<GraphTensor> biased;  // result + B: what the graph writes when a bias is fused
  std::vector<std::int64_t> pre_padding, post_padding, stride, dilation;
  bool grad_bias_after = false;  // backward_weights with a bias: cudnnConvolutionBackwardBias after the graph
};

// One UID per kbench buffer (each is bound at most once): 1 + its Operand value.
std::int64_t graph_uid(Operand buffer);

// Precondition: shape from cudnn_shape(problem) of an expressible problem.
CudnnGraphAttributes cudnn_graph_attributes(const CudnnConvShape& shape);

// What the graph writes: biased when a bias is fused, else result.
const GraphTensor& graph_output(const CudnnGraphAttributes& graph);
// The tensors bound to kbench's buffers (the variant pack), in UID order.
std::vector<const GraphTensor*> bound_tensors(const CudnnGraphAttributes& graph);

// "conv_fprop", "conv_dgrad", "conv_wgrad": the frontend's names for the node.
std::string graph_node_name(GraphConvNode node);

}  // namespace kbench::gpu
