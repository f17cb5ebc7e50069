#pragma once
// torch inside the embedded interpreter: imported once per process with kbench's small helper
// module (its Python source is in torch_session.cpp), and one prepared call per PreparedRun. The
// helper turns kbench's buffers into tensors through DLPack (no copy), applies the settings,
// wraps the call in torch.compile when asked, and runs it on kbench's stream on a GPU.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "problem/conv_problem.hpp"
#include "torch/dlpack.hpp"
#include "torch/interpreter.hpp"
#include "torch/python_runtime.hpp"
#include "torch/torch_flags.hpp"

namespace kbench::torch {

// What the imported torch says about itself.
struct TorchFacts {
  std::string version;        // torch.__version__
  std::string cudnn_version;  // torch.backends.cudnn.version(), or "none"
  std::string cuda_version;   // torch.version.cuda, or "none" (a CPU build)
  bool cuda_available = false;
  bool has_compile = false;  // torch.compile exists (torch 2.0 on)
  int threads = 0;           // torch.get_num_threads(): the CPU path's intra-op threads
};

class TorchSession {
 public:
  // The process's session: Python started for `interpreter` and torch imported, at the first call
  // only. Throws PythonError with Python's text when either fails.
  static TorchSession& open(const InterpreterInfo& interpreter);

  const PythonRuntime& python() const { return python_; }
  const TorchFacts& facts() const { return facts_; }
  PyObject* helper() const { return helper_.get(); }

  // A "dltensor" capsule owning `view` (its deleter runs if torch never takes it). GIL held.
  PyRef capsule(dlpack::DLManagedTensor* view) const;

 private:
  explicit TorchSession(PythonRuntime& python);
  PythonRuntime& python_;
  PyRef helper_;  // the helper module's namespace (a dict)
  TorchFacts facts_;
};

// kbench's four buffers, where torch is to find them (host or device memory, per `device`), in the
// problem's dtype and layout (problem/memory_layout.hpp): torch sees them with channels-last strides
// where the layout is nhwc.
struct TorchBuffers {
  void* x = nullptr;
  void* w = nullptr;
  void* b = nullptr;  // null without bias
  void* y = nullptr;
  dlpack::DLDevice device{dlpack::kDLCPU, 0};
};

// The DLPack element type of `dtype` (float16, bfloat16 or float32).
dlpack::DLDataType dlpack_dtype(DType dtype);

// Whether KBENCH_TORCH_ATEN_OPS=1 asks each prepared call to record its aten operators (record_aten_ops).
bool aten_ops_requested();

// One problem prepared in torch: tensors over kbench's buffers, settings applied, the call (eager
// or compiled, or a module file's model: settings.module) made once. Holds the GIL only inside its calls.
class TorchCall {
 public:
  TorchCall(TorchSession& session, const ConvProblem& problem, const TorchSettings& settings,
            const TorchBuffers& buffers);
  ~TorchCall();
  TorchCall(const TorchCall&) = delete;
  TorchCall& operator=(const TorchCall&) = delete;

  // The convolution alone, on `stream` (a cudaStream_t; 0 on the CPU); torch allocates its output and keeps it (the
  // timed part).
  void run(std::uintptr_t stream);
  // After the first run: adds to facts() what it compiled (torch.compile.frames_compiled, graphs,
  // graph_breaks, recompiles); throws PythonError (NotCompiled) where torch.compile left it eager.
  void record_warm_up();
  // One call on `stream` as it is timed, under torch.profiler: the aten operators it dispatched, distinct,
  // in order, added to facts() as torch.aten_ops ("aten::conv2d, aten::convolution, ..."): where a
  // transpose or a copy hides inside the timed call.
  void record_aten_ops(std::uintptr_t stream);
  // The last output copied into kbench's output buffer, enqueued on `stream` (untimed).
  void copy_out(std::uintptr_t stream);
  // What the helper reports: device, the settings torch holds, threads; for a result's properties.
  const std::vector<std::pair<std::string, std::string>>& facts() const { return facts_; }
  // What a module call runs ("ModelNew from PATH"); empty for torch's own functions.
  const std::string& implementation() const { return implementation_; }

 private:
  TorchSession& session_;
  PyRef state_;
  std::vector<std::pair<std::string, std::string>> facts_;
  std::string implementation_;
};

}  // namespace kbench::torch
