#pragma once
// Names of cuDNN's legacy convolution algorithms, as typed after "cudnn:" and printed in
// reports, per call (cudnn_pass.hpp says which call a problem's pass makes): forward algorithms
// (IMPLICIT_PRECOMP_GEMM, ...), backward-data algorithms (ALGO_0, ALGO_1, FFT, ...) and
// backward-filter algorithms (ALGO_0, ALGO_1, ALGO_3, FFT, ...). The same short name may mean
// different algorithms of different calls. Values are the enums' ints.
#include <cudnn.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnn/cudnn_pass.hpp"

namespace kbench::gpu {

std::vector<std::string> forward_algorithm_names();
std::vector<std::string> backward_data_algorithm_names();
std::vector<std::string> backward_filter_algorithm_names();
std::vector<std::string> algorithm_names(CudnnApi api);  // one of the three, in enum order

// The short name; "ALGO_#N" for a number the table does not know (a newer cuDNN's).
std::string algorithm_name(CudnnApi api, int algo);

// Accepts the short name in any case ("implicit_precomp_gemm") or the full enum name of that call
// ("CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM", "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3").
std::optional<int> parse_algorithm(CudnnApi api, std::string_view name);

std::string math_type_name(cudnnMathType_t math);

}  // namespace kbench::gpu
