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

const std::vector<NamedAlgo>& table_for(bool backward_data) {
  return backward_data ? backward_data_table() : forward_table();
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

std::string algorithm_name(bool backward_data, int algo) {
  for (const auto& entry : table_for(backward_data))
    if (entry.value == algo) return entry.name;
  return "ALGO_#" + std::to_string(algo);  // an algorithm newer than this table
}

std::optional<int> parse_algorithm(bool backward_data, std::string_view name) {
  const std::string wanted = upper(name);
  for (const auto& entry : table_for(backward_data)) {
    const std::string_view short_name = entry.name;
    // Full enum names: CUDNN_CONVOLUTION_FWD_ALGO_<name>, CUDNN_CONVOLUTION_BWD_DATA_ALGO_<0|1|FFT|...>.
    const std::string full = backward_data
                                 ? "CUDNN_CONVOLUTION_BWD_DATA_ALGO_" +
                                       std::string(short_name.starts_with("ALGO_") ? short_name.substr(5) : short_name)
                                 : "CUDNN_CONVOLUTION_FWD_ALGO_" + std::string(short_name);
    if (wanted == short_name || wanted == full) return entry.value;
  }
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
