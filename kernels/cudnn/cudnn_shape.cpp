#include "cudnn/cudnn_shape.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace kbench::gpu {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

const char* dim_name(int rank, int d) {
  static const char* const names[3][3] = {{"L", "", ""}, {"H", "W", ""}, {"D", "H", "W"}};
  return names[rank - 1][d];
}

// cuDNN's forward output extent: symmetric padding p on both sides.
std::int64_t cudnn_forward_extent(std::int64_t in, std::int64_t pad, std::int64_t kernel, std::int64_t stride,
                                  std::int64_t dilation) {
  const std::int64_t span = dilation * (kernel - 1) + 1;
  const std::int64_t padded = in + 2 * pad;
  return padded < span ? 0 : (padded - span) / stride + 1;
}

int narrow(std::int64_t value) {
  if (value < 0 || value > kIntMax) throw std::logic_error(fmt::format("cudnn_shape: {} does not fit an int", value));
  return static_cast<int>(value);
}

std::vector<int> tensor_dims(const ConvProblem& p, std::int64_t channels, const Dims& spatial) {
  std::vector<int> dims = {narrow(p.batch), narrow(channels)};
  if (p.spatial_rank == 1) dims.push_back(1);
  for (int d = 0; d < p.spatial_rank; ++d) dims.push_back(narrow(spatial[d]));
  return dims;
}

}  // namespace

Support cudnn_expressible(const ConvProblem& p) {
  if (p.spatial_rank < 1 || p.spatial_rank > 3)
    return Support::no(fmt::format("spatial rank {} (cuDNN: 1D, 2D, 3D)", p.spatial_rank));
  if (p.groups < 1 || p.in_channels % p.groups != 0 || p.out_channels % p.groups != 0)
    return Support::no("groups must divide both channel counts");

  // The legacy API describes tensors with int sizes and strides and indexes them in 32 bits.
  const std::int64_t elements[] = {p.input_elements(), p.weight_elements(), p.output_elements()};
  const char* const tensor_names[] = {"input", "weight", "output"};
  for (int t = 0; t < 3; ++t)
    if (elements[t] > kIntMax)
      return Support::no(
          fmt::format("the {} has {} elements; cuDNN's legacy API takes at most 2^31-1 per tensor "
                      "(PyTorch splits the batch here; kbench does not)",
                      tensor_names[t], elements[t]));

  for (int d = 0; d < p.spatial_rank; ++d) {
    const std::int64_t pad = p.pad_before[d];
    if (pad < 0) return Support::no(fmt::format("negative padding along {}", dim_name(p.spatial_rank, d)));
    // cuDNN pads both sides by the same amount; the problem is expressible exactly when padding
    // pad_before on both sides yields the very extents the problem has (the taps then line up
    // with pad_before's, and any difference at the far end falls outside the output).
    const std::int64_t forward_in = p.transposed() ? p.output_extent(d) : p.input[d];
    const std::int64_t forward_out = p.transposed() ? p.input[d] : p.output_extent(d);
    const std::int64_t got = cudnn_forward_extent(forward_in, pad, p.kernel[d], p.stride[d], p.dilation[d]);
    if (got != forward_out) {
      if (p.transposed())
        return Support::no(
            fmt::format("along {}: padding {}/{} with output_padding {} cannot be expressed to cuDNN's backward data, "
                        "which pads both sides equally (needs 0 <= pad_before - pad_after + output_padding < stride)",
                        dim_name(p.spatial_rank, d), p.pad_before[d], p.pad_after[d], p.output_padding[d]));
      return Support::no(
          fmt::format("along {}: asymmetric padding {}/{}; cuDNN pads both sides equally, and padding {} on both sides "
                      "gives output extent {}, not {}",
                      dim_name(p.spatial_rank, d), p.pad_before[d], p.pad_after[d], pad, got, forward_out));
    }
  }
  return Support::yes();
}

CudnnConvShape cudnn_shape(const ConvProblem& p) {
  CudnnConvShape s;
  s.nb_dims = p.spatial_rank == 3 ? 5 : 4;
  s.groups = narrow(p.groups);
  s.call = cudnn_call(p);
  s.dtype = p.dtype;
  s.channels_last = p.layout == Layout::nhwc;

  const std::vector<int> x = tensor_dims(p, p.in_channels, p.input);
  const std::vector<int> y = tensor_dims(p, p.out_channels, p.output());
  s.forward_input = p.transposed() ? y : x;
  s.forward_output = p.transposed() ? x : y;

  s.filter = {narrow(p.weight_dim0()), narrow(p.weight_dim1())};
  s.bias = {1, narrow(p.out_channels)};
  if (p.spatial_rank == 1) {
    // The unit height: kernel 1, no padding, stride and dilation 1.
    s.filter.push_back(1);
    s.bias.push_back(1);
    s.pad.push_back(0);
    s.stride.push_back(1);
    s.dilation.push_back(1);
  }
  for (int d = 0; d < p.spatial_rank; ++d) {
    s.filter.push_back(narrow(p.kernel[d]));
    s.bias.push_back(1);
    s.pad.push_back(narrow(p.pad_before[d]));
    s.stride.push_back(narrow(p.stride[d]));
    s.dilation.push_back(narrow(p.dilation[d]));
  }
  s.forward_input_strides = layout_strides(s.forward_input, s.channels_last);
  s.forward_output_strides = layout_strides(s.forward_output, s.channels_last);
  s.bias_strides = packed_strides(s.bias);  // [1, C, 1...]: C contiguous is both layouts
  return s;
}

std::vector<int> packed_strides(const std::vector<int>& dims) {
  std::vector<int> strides(dims.size(), 1);
  if (dims.empty()) return strides;
  for (std::size_t i = dims.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

std::vector<int> channels_last_strides(const std::vector<int>& dims) {
  std::vector<int> strides(dims.size(), 1);
  if (dims.size() < 2) return packed_strides(dims);
  // Memory order: N, spatial (first to last), C. Walk it from the innermost outwards.
  int stride = dims[1];  // C innermost, stride 1
  for (std::size_t i = dims.size() - 1; i >= 2; --i) {
    strides[i] = stride;
    stride *= dims[i];
  }
  strides[0] = stride;
  return strides;
}

std::vector<int> layout_strides(const std::vector<int>& dims, bool channels_last) {
  return channels_last ? channels_last_strides(dims) : packed_strides(dims);
}

}  // namespace kbench::gpu
