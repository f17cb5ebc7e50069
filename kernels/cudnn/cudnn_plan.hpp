#pragma once
// `kbench plan` for cuDNN: what it would run for a problem, asked of the device (cuDNN's heuristics
// need a handle, so there is no cuDNN plan without one) and decided without running anything.
#include <cudnn.h>

#include "backend/backend.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu {

// The heuristic's (or the forced) algorithm first, with what a result records of it; then, unless
// one is forced, every other algorithm cuDNN supports for the problem within the workspace limit
// (as `cudnn:all` would run them); those it does not support, or that need more workspace, ruled
// out with why. Not planned when no algorithm can run it (cuDNN's reasons).
BackendPlan plan_cudnn(cudnnHandle_t handle, const ConvProblem& problem, const BackendOptions& options);

}  // namespace kbench::gpu
