#pragma once
// One problem set up on cuDNN: what runs chosen and run once, workspace allocated. What runs is either
// a legacy algorithm (descriptors, cudnn_pass.hpp's call) or an engine config of cuDNN's graph API
// (graph/: `cudnn:graph`, `cudnn:engine/...`, and the exhaustive search where the graph API is built).
// With a bias, the legacy call is followed by a separate step inside the timed region (forward:
// cudnnAddTensor; backward_weights: cudnnConvolutionBackwardBias into grad_bias), as PyTorch does it;
// the graph fuses the forward bias as a pointwise add and keeps the separate grad_bias step.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "cudnn/cudnn_algo_select.hpp"
#include "cudnn/cudnn_descriptors.hpp"
#include "cudnn/graph/graph_api.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/gpu_prepared_run.hpp"

namespace kbench::gpu {

// The shared handle is pointed at a run's stream while the run enqueues; this puts it back on the
// default stream before the run's stream is destroyed, so later queries (other runs' supports(),
// cudnnDestroy) never use a dead stream. Also when the run's constructor throws half-way.
class HandleStreamReset {
 public:
  explicit HandleStreamReset(std::shared_ptr<CudnnHandle> handle) : handle_(std::move(handle)) {}
  ~HandleStreamReset() { (void)cudnnSetStream(handle_->get(), nullptr); }
  HandleStreamReset(const HandleStreamReset&) = delete;
  HandleStreamReset& operator=(const HandleStreamReset&) = delete;

 private:
  std::shared_ptr<CudnnHandle> handle_;
};

// One thing cuDNN can run for the pass: a legacy algorithm, or config `engine_config` of the run's graph.
struct CudnnCandidate {
  std::optional<AlgoChoice> legacy;
  std::optional<std::size_t> engine_config;
  std::int64_t graph_workspace_bytes = 0;
  std::string how;  // how it was chosen, for the graph ("heuristic", "forced", "exhaustive")
};

class CudnnPreparedRun final : public GpuPreparedRun {
 public:
  // Throws CudnnError when nothing can be chosen (supports() has normally ruled that out), or when
  // none of the usable choices executes.
  CudnnPreparedRun(const ConvProblem& problem, const BackendOptions& options, std::shared_ptr<CudnnHandle> handle);

  std::string implementation() const override;
  MathMode math_used() const override;
  // The legacy path's cudnnAddTensor rounds the biased output a second time; the graph fuses the add.
  OutputRounding output_rounding() const override;
  std::vector<std::pair<std::string, std::string>> properties() const override;
  std::vector<std::string> warnings() const override;

 protected:
  void enqueue(cudaStream_t stream) override;

 private:
  // The buffers behind the descriptors for the pass's call (cudnn_pass.hpp).
  ConvPointers tensors();
  std::string name_of(const CudnnCandidate& candidate) const;
  // Allocates the candidate's workspace and runs it once; throws what the run threw.
  void commit(const CudnnCandidate& candidate);
  // Runs the selection's choice once, else each alternative in turn; keeps the first that runs.
  void commit_to_first_that_runs(const Selection& selection);
  // A graph variant: the forced config, or the heuristics' first that builds and runs.
  void prepare_graph_variant(const BackendOptions& options);
  // --algo exhaustive with the graph API: every legacy algorithm and engine config, timed by kbench.
  void search_both_apis(const BackendOptions& options);
  void grad_bias_after(const CudnnCall& call);

  std::shared_ptr<CudnnHandle> handle_;
  HandleStreamReset stream_reset_;  // after handle_: reset before the handle may go
  ConvDescriptors descs_;
  CudnnGraphAttributes graph_attributes_;
  std::unique_ptr<CudnnGraph> graph_;  // graph variants and the exhaustive search
  CudnnCandidate running_;             // what enqueue() runs
  AlgoChoice choice_;                  // running_.legacy's, when it is set
  std::vector<std::pair<std::int64_t, void*>> graph_tensors_;  // the graph's variant pack, by UID
  std::vector<std::string> skipped_;  // usable choices that failed their trial run, with why
  std::vector<std::pair<std::string, std::string>> search_;  // the exhaustive search's properties
  DeviceBuffer<unsigned char> workspace_;
};

}  // namespace kbench::gpu
