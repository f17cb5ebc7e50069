#pragma once
// Which cuDNN call computes a problem's pass, and which of kbench's buffers each of the forward
// convolution's descriptors (cudnn_shape.hpp: forward_input, filter, forward_output) describes. No
// cuDNN header, so the host tests check every (op, pass) without a device.
//
// kbench keeps one buffer per forward operand whatever the pass (runtime/gpu_prepared_run.hpp):
// grad_output lives in the output's buffer, grad_input in the input's, grad_weight and grad_bias in
// the weight's and bias's. The descriptors are those of cuDNN's forward convolution: for a conv its
// x -> y, for a conv_transpose the conv that maps our output to our input (forward_input describes
// our output's buffer, forward_output our input's). Then, with dy and dx in cuDNN's terms:
//
//   op              pass              call                          reads                writes
//   conv            forward           cudnnConvolutionForward       x(in), w             y(out)
//   conv            backward_data     cudnnConvolutionBackwardData  dy(out), w           dx(in)
//   conv            backward_weights  cudnnConvolutionBackwardFilter x(in), dy(out)      dw(weight)
//   conv_transpose  forward           cudnnConvolutionBackwardData  dy(in), w            dx(out)
//   conv_transpose  backward_data     cudnnConvolutionForward       x(out), w            y(in)
//   conv_transpose  backward_weights  cudnnConvolutionBackwardFilter x(out), dy(in)      dw(weight)
//
// A conv_transpose's weight is the filter of that conv unchanged, so its grad_weight is the conv's,
// with the roles of our input and grad_output exchanged. With a bias, forward adds it onto what the
// call writes (cudnnAddTensor); backward_weights reduces grad_output into grad_bias
// (cudnnConvolutionBackwardBias), described by whichever descriptor describes our output's buffer.
#include <string_view>

#include "problem/conv_problem.hpp"
#include "problem/memory_layout.hpp"

namespace kbench::gpu {

// cuDNN's three legacy convolution calls, each with its own algorithm enum.
enum class CudnnApi { forward, backward_data, backward_filter };

// The descriptors of one convolution (ConvDescriptors).
enum class CudnnTensor { forward_input, filter, forward_output };

enum class BiasStep {
  none,            // no bias, or a backward_data pass (the bias plays no part in grad_input)
  add_to_written,  // forward: cudnnAddTensor onto the tensor the call wrote
  gradient,        // backward_weights: cudnnConvolutionBackwardBias of grad_output into the bias buffer
};

struct CudnnCall {
  CudnnApi api = CudnnApi::forward;
  CudnnTensor written = CudnnTensor::forward_output;  // the tensor the call writes (beta 0)
  Operand forward_input = Operand::input;             // kbench's buffer behind the forward_input descriptor
  Operand forward_output = Operand::output;           // behind the forward_output descriptor
  BiasStep bias = BiasStep::none;
  CudnnTensor bias_operand = CudnnTensor::forward_output;  // what the bias step reads or adds onto
};

CudnnCall cudnn_call(const ConvProblem& problem);

// kbench's buffer behind a descriptor of `call` (the filter's is always the weight's).
Operand buffer_of(const CudnnCall& call, CudnnTensor tensor);

// "cudnnConvolutionForward", "cudnnConvolutionBackwardData", "cudnnConvolutionBackwardFilter".
std::string_view api_function(CudnnApi api);
// How messages name the call's algorithms: "forward", "backward-data", "backward-filter".
std::string_view api_noun(CudnnApi api);

}  // namespace kbench::gpu
