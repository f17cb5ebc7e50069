#pragma once
// Names of cuDNN's legacy convolution algorithms, as typed after "cudnn:" and printed in
// reports: forward algorithms for convolutions (IMPLICIT_PRECOMP_GEMM, ...), backward-data
// algorithms for transposed convolutions (ALGO_0, ALGO_1, ...). Values are the enums' ints.
#include <cudnn.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbench::gpu {

std::vector<std::string> forward_algorithm_names();
std::vector<std::string> backward_data_algorithm_names();

std::string algorithm_name(bool backward_data, int algo);

// Accepts the short name in any case ("implicit_precomp_gemm") or the full enum name
// ("CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM").
std::optional<int> parse_algorithm(bool backward_data, std::string_view name);

std::string math_type_name(cudnnMathType_t math);

}  // namespace kbench::gpu
