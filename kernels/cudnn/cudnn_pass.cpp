#include "cudnn/cudnn_pass.hpp"

namespace kbench::gpu {

namespace {

CudnnApi api_for(const ConvProblem& p) {
  switch (p.pass) {
    // A conv_transpose's forward is its conv's backward data, and its backward data that conv's forward.
    case Pass::forward: return p.transposed() ? CudnnApi::backward_data : CudnnApi::forward;
    case Pass::backward_data: return p.transposed() ? CudnnApi::forward : CudnnApi::backward_data;
    case Pass::backward_weights: break;
  }
  return CudnnApi::backward_filter;
}

CudnnTensor written_by(CudnnApi api) {
  switch (api) {
    case CudnnApi::forward: return CudnnTensor::forward_output;
    case CudnnApi::backward_data: return CudnnTensor::forward_input;
    case CudnnApi::backward_filter: break;
  }
  return CudnnTensor::filter;
}

}  // namespace

CudnnCall cudnn_call(const ConvProblem& p) {
  CudnnCall call;
  call.api = api_for(p);
  call.written = written_by(call.api);
  call.forward_input = p.transposed() ? Operand::output : Operand::input;
  call.forward_output = p.transposed() ? Operand::input : Operand::output;
  if (p.bias && p.pass == Pass::forward) {
    call.bias = BiasStep::add_to_written;
    call.bias_operand = call.written;
  } else if (p.bias && p.pass == Pass::backward_weights) {
    call.bias = BiasStep::gradient;
    // grad_output lives in our output's buffer, whichever descriptor that is.
    call.bias_operand = p.transposed() ? CudnnTensor::forward_input : CudnnTensor::forward_output;
  }
  return call;
}

Operand buffer_of(const CudnnCall& call, CudnnTensor tensor) {
  switch (tensor) {
    case CudnnTensor::forward_input: return call.forward_input;
    case CudnnTensor::filter: return Operand::weight;
    case CudnnTensor::forward_output: break;
  }
  return call.forward_output;
}

std::string_view api_function(CudnnApi api) {
  switch (api) {
    case CudnnApi::forward: return "cudnnConvolutionForward";
    case CudnnApi::backward_data: return "cudnnConvolutionBackwardData";
    case CudnnApi::backward_filter: break;
  }
  return "cudnnConvolutionBackwardFilter";
}

std::string_view api_noun(CudnnApi api) {
  switch (api) {
    case CudnnApi::forward: return "forward";
    case CudnnApi::backward_data: return "backward-data";
    case CudnnApi::backward_filter: break;
  }
  return "backward-filter";
}

}  // namespace kbench::gpu
