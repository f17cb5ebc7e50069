#pragma once
// Choosing and running cuDNN's algorithm for one convolution: forward for a convolution,
// backward data for a transposed one. Three ways to choose, after BackendOptions:
//   heuristic  - cudnnGet*Algorithm_v7: the first result that succeeds within the workspace limit;
//   exhaustive - cudnnFind*AlgorithmEx: cuDNN times every algorithm on our buffers, fastest wins;
//   forced     - options.variant names the algorithm ("IMPLICIT_PRECOMP_GEMM", "ALGO_1", ...).
#include <cudnn.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "cudnn/cudnn_descriptors.hpp"

namespace kbench::gpu {

struct AlgoChoice {
  int algo = 0;  // cudnnConvolutionFwdAlgo_t or cudnnConvolutionBwdDataAlgo_t, per shape().backward_data
  cudnnMathType_t math = CUDNN_FMA_MATH;  // the math type the algorithm runs under
  std::size_t workspace_bytes = 0;
  std::string how;        // "heuristic", "exhaustive", "forced"
  float search_ms = -1;   // exhaustive: cuDNN's own time for the chosen algorithm
};

// A choice, or why there is none (cuDNN's answer, or the workspace limit).
struct Selection {
  std::optional<AlgoChoice> choice;
  std::string reason;
};

// Every algorithm cuDNN has for the call (forward, or backward data), by number.
std::vector<int> all_algorithms(bool backward_data);

// The math type a convolution descriptor starts with for a math mode: fp32 -> CUDNN_FMA_MATH
// (FMA kernels only: no TF32 tensor cores), tf32 -> CUDNN_DEFAULT_MATH (TF32 tensor cores
// allowed on Ampere and later; what PyTorch sets when cuDNN's allow_tf32 is on).
cudnnMathType_t initial_math(MathMode math);

// Workspace `algo` needs under the descriptors' current math type; nullopt when cuDNN answers
// that it does not support the algorithm for this problem.
std::optional<std::size_t> algorithm_workspace(cudnnHandle_t handle, const ConvDescriptors& descs, int algo);

// Heuristic or forced selection; needs no device buffers. May change descs' math type to the
// chosen algorithm's (tf32 mode only: fp32 stays CUDNN_FMA_MATH whatever cuDNN reports).
Selection select_without_running(cudnnHandle_t handle, ConvDescriptors& descs, const BackendOptions& options);

// What a result records of a choice: the call, algorithm, math type, workspace, how it was chosen.
std::vector<std::pair<std::string, std::string>> choice_properties(const ConvDescriptors& descs,
                                                                   const AlgoChoice& choice);

// The workspace an exhaustive search is given: the largest any algorithm cuDNN supports here
// needs, among those within `limit`.
std::size_t exhaustive_search_workspace(cudnnHandle_t handle, const ConvDescriptors& descs, std::int64_t limit);

// Our tensors in kbench's terms (the convolution's x, w, y); for backward data x is dy and y is dx.
struct ConvPointers {
  const float* x = nullptr;
  const float* w = nullptr;
  float* y = nullptr;
};

// Exhaustive selection: runs every algorithm on the buffers (y is overwritten).
Selection select_exhaustive(cudnnHandle_t handle, ConvDescriptors& descs, const ConvPointers& tensors,
                            void* workspace, std::size_t workspace_bytes, std::int64_t limit, MathMode math);

// y = conv(x, w) (forward) or y = conv_backward_data(x, w) (transposed), with beta = 0 so the
// previous contents of y (NaN poison) are never read.
void execute(cudnnHandle_t handle, const ConvDescriptors& descs, const AlgoChoice& choice, const ConvPointers& tensors,
             void* workspace);

}  // namespace kbench::gpu
