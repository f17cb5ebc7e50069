#pragma once
// The "cudnn" backend: NVIDIA cuDNN's legacy convolution API, every pass (cudnn_pass.hpp says
// which call each (op, pass) makes: forward, backward data, backward filter), FMA-only math for
// --math fp32 and TF32 tensor cores allowed for --math tf32. Variants are the names of the
// algorithms of the pass's call and, where cudnn-frontend was found at build time, the graph API's
// "graph" and "engine/<index>[:<knobs>]" (graph/graph_variant.hpp).
#include <memory>
#include <string>

#include "backend/backend.hpp"

namespace kbench::gpu {

std::unique_ptr<Backend> make_cudnn_backend();

// "cudnn-frontend 1.32.0" where cuDNN's graph API is built in, else why not (for `kbench info`).
std::string cudnn_graph_api_status();

}  // namespace kbench::gpu
