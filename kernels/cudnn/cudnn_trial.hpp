#pragma once
// Running the chosen algorithm once before committing to it, and moving down the ranked list when
// it fails, as PyTorch does: cuDNN may rank an algorithm it then cannot execute for the problem
// (CUDNN_STATUS_EXECUTION_FAILED, NOT_SUPPORTED at run time, a workspace allocation that fails).
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "cudnn/cudnn_check.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

struct TrialOutcome {
  std::optional<std::size_t> chosen;  // the first candidate that ran; none when all failed
  std::vector<std::string> skipped;   // "NAME: what failed", in order
};

// What first_that_runs asks after a candidate's execution failure: throws CudaError when the CUDA
// context holds a fault (check_context_after), returns when the failure was the candidate's own.
struct AskCudaContext {
  void operator()(const std::string& failure) const {
    check_context_after(failure.c_str(), __FILE__, __LINE__);
  }
};

// Calls try_one(i) for i = 0, 1, ... until one returns. A cuDNN error, or a CUDA error that leaves
// the context usable (a failed allocation), skips to the next candidate; a sticky CUDA error (a
// fault: nothing can run after it) or any other exception propagates. A cuDNN execution failure
// (is_execution_failure) is a fault when the context says so: `ask_context` throws it then, and
// nothing more is tried.
template <class Name, class Try, class AskContext = AskCudaContext>
TrialOutcome first_that_runs(std::size_t count, Name&& name, Try&& try_one, AskContext&& ask_context = {}) {
  TrialOutcome outcome;
  for (std::size_t i = 0; i < count; ++i) {
    try {
      try_one(i);
      outcome.chosen = i;
      return outcome;
    } catch (const CudnnError& e) {
      if (is_execution_failure(e.status())) ask_context(name(i) + ": " + e.what());
      outcome.skipped.push_back(name(i) + ": " + e.what());
    } catch (const CudaError& e) {
      if (is_sticky_error(e.code())) throw;
      outcome.skipped.push_back(name(i) + ": " + e.what());
    }
  }
  return outcome;
}

}  // namespace kbench::gpu
