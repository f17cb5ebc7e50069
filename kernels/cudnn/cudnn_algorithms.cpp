#include "cudnn/cudnn_algorithms.hpp"

#include <algorithm>
#include <cctype>

namespace kbench::gpu {

namespace {

struct NamedAlgo {
  int value;
  const char* name;
};

// Listed in enum order; WINOGRAD, FFT and friends are kept although cuDNN 9 rarely offers them
// for fp32: "cudnn:all" then shows them as unsupported with cuDNN's own answer.
const std::vector<NamedAlgo>& forward_table() {
  static const std::vector<NamedAlgo> table = {
      {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, "IMPLICIT_GEMM"},
      {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, "IMPLICIT_PRECOMP_GEMM"},
      {CUDNN_CONVOLUTION_FWD_ALGO_GEMM, "GEMM"},
      {CUDNN_CONVOLUTION_FWD_ALGO_DIRECT, "DIRECT"},
      {CUDNN_CONVOLUTION_FWD_ALGO_FFT, "FFT"},
      {CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING, "FFT_TILING"},
      {CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, "WINOGRAD"},
      {CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, "WINOGRAD_NONFUSED"},
  };
  return table;
}

const std::vector<NamedAlgo>& backward_data_table() {
  static const std::vector<NamedAlgo> table = {
      {CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, "ALGO_0"},
      {CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, "ALGO_1"},
      {CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT, "FFT"},
      {CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING, "FFT_TILING"},
      {CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, "WINOGRAD"},
      {CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED, "WINOGRAD_NONFUSED"},
  };
  return table;
}

// ALGO_3 and WINOGRAD ("not implemented" in cuDNN 9's header) kept for the same reason.
const std::vector<NamedAlgo>& backward_filter_table() {
  static const std::vector<NamedAlgo> table = {
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, "ALGO_0"},
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, "ALGO_1"},
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT, "FFT"},
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3, "ALGO_3"},
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD, "WINOGRAD"},
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED, "WINOGRAD_NONFUSED"},
      {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING, "FFT_TILING"},
  };
  return table;
}

const std::vector<NamedAlgo>& table_for(CudnnApi api) {
  switch (api) {
    case CudnnApi::forward: return forward_table();
    case CudnnApi::backward_data: return backward_data_table();
    case CudnnApi::backward_filter: break;
  }
  return backward_filter_table();
}

// The enum's own name for a short name: CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, but
// CUDNN_CONVOLUTION_BWD_DATA_ALGO_0 for ALGO_0 (the short names of the numbered ones keep "ALGO_").
std::string full_name(CudnnApi api, std::string_view short_name) {
  const std::string_view tail = short_name.starts_with("ALGO_") ? short_name.substr(5) : short_name;
  switch (api) {
    case CudnnApi::forward: return "CUDNN_CONVOLUTION_FWD_ALGO_" + std::string(short_name);
    case CudnnApi::backward_data: return "CUDNN_CONVOLUTION_BWD_DATA_ALGO_" + std::string(tail);
    case CudnnApi::backward_filter: break;
  }
  return "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_" + std::string(tail);
}

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::vector<std::string> names_of(const std::vector<NamedAlgo>& table) {
  std::vector<std::string> names;
  for (const auto& algo : table) names.emplace_back(algo.name);
  return names;
}

}  // namespace

std::vector<std::string> forward_algorithm_names() { return names_of(forward_table()); }
std::vector<std::string> backward_data_algorithm_names() { return names_of(backward_data_table()); }
std::vector<std::string> backward_filter_algorithm_names() { return names_of(backward_filter_table()); }
std::vector<std::string> algorithm_names(CudnnApi api) { return names_of(table_for(api)); }

std::string algorithm_name(CudnnApi api, int algo) {
  for (const auto& entry : table_for(api))
    if (entry.value == algo) return entry.name;
  return "ALGO_#" + std::to_string(algo);  // an algorithm newer than this table
}

std::optional<int> parse_algorithm(CudnnApi api, std::string_view name) {
  const std::string wanted = upper(name);
  for (const auto& entry : table_for(api))
    if (wanted == entry.name || wanted == full_name(api, entry.name)) return entry.value;
  return std::nullopt;
}

std::string math_type_name(cudnnMathType_t math) {
  switch (math) {
    case CUDNN_DEFAULT_MATH: return "CUDNN_DEFAULT_MATH";
    case CUDNN_TENSOR_OP_MATH: return "CUDNN_TENSOR_OP_MATH";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION";
    case CUDNN_FMA_MATH: return "CUDNN_FMA_MATH";
  }
  return "cudnnMathType_t(" + std::to_string(static_cast<int>(math)) + ")";
}

}  // namespace kbench::gpu
