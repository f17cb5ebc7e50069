#pragma once
// What the backends that run inside the embedded torch (torch, module) share: the interpreter found,
// started and torch imported once, at the first question that needs it (the process has one
// TorchSession); whether torch runs on the GPU or the CPU; the memory a run needs; the prepared run.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "backend/backend.hpp"
#include "torch/interpreter.hpp"
#include "torch/torch_flags.hpp"
#include "torch/torch_session.hpp"

namespace kbench::torch {

class EmbeddedTorch {
 public:
  // `python_flag`: --python PATH, empty when not given (then $KBENCH_PYTHON, then python3 on PATH).
  explicit EmbeddedTorch(std::string python_flag) : python_flag_(std::move(python_flag)) {}

  Support available() const;
  bool started() const { return session_ != nullptr; }  // without starting it
  const TorchFacts& facts() const { return session_->facts(); }  // once started
  TorchSession& session() const { return *session_; }            // once available
  const InterpreterChoice& interpreter_choice() const { return choice_; }  // once available

  // On the CPU where torch cannot reach a GPU (no CUDA build, no device, a CPU-only torch): the runner
  // then times it like the reference.
  bool on_gpu() const;

  // kbench's buffers and torch's own output (the pass's computed tensor) beside them, in device or host
  // memory.
  Support fits(const ConvProblem& problem, const BackendOptions& options) const;

  // The call prepared on kbench's buffers, on the GPU or the CPU; throws with the reason when it cannot.
  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options,
                                       const TorchSettings& settings) const;

  // "BACKEND backend: torch 2.x (cuDNN ...) in Python ... (PATH, from SOURCE), on the GPU".
  std::string environment_note(std::string_view backend) const;

 private:
  Support start() const;

  std::string python_flag_;
  mutable InterpreterChoice choice_;
  mutable std::optional<Support> availability_;
  mutable TorchSession* session_ = nullptr;  // the process's, once started
  mutable std::optional<bool> gpu_;
};

}  // namespace kbench::torch
