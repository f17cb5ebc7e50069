#include "cuda/cuda_prepared_run.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "cuda/device_support.hpp"
#include "cuda/passes/pass_operands.hpp"

namespace kbench::gpu {

namespace {

// Cold samples per candidate (the best counts): few, since the search runs once per prepared problem,
// yet each after an L2 flush like every measured sample.
constexpr int kSearchSamples = 3;
constexpr std::uint64_t kSearchSeed = 0x5eed5ea7c4;

}  // namespace

// The base constructor made `device` current, so the launch's buffers and kernel settings land on it.
CudaPreparedRun::CudaPreparedRun(const ConvProblem& problem, int device, const conv::KernelChoice& choice,
                                 MathMode requested, AlgoSearch search_mode)
    : GpuPreparedRun(problem, device), choice_(choice) {
  if (search_mode == AlgoSearch::exhaustive) {
    search_ = search(requested);
    choice_ = search_->best;
  }
  launch_ = conv::make_kernel_launch(choice_, problem);
}

// Every candidate this device can run (the wgmma ones on 9.0 devices only; no_split_k only where the
// default splits, else it would be timed twice) on these buffers (filled
// with real data first: no timing on uninitialised memory), one launch at a time so the search needs no
// more device memory than its largest candidate.
conv::SearchOutcome CudaPreparedRun::search(MathMode requested) {
  fill_inputs(kSearchSeed);
  std::vector<conv::KernelChoice> candidates = conv::search_candidates(problem(), requested);
  std::erase_if(candidates, [&](const conv::KernelChoice& c) {
    return !choice_runs_on(c, device()) || !choice_differs_on(c, problem(), device());
  });
  return conv::pick_fastest(candidates, [&](const conv::KernelChoice& c) {
    launch_.reset();
    launch_ = conv::make_kernel_launch(c, problem());
    run();  // the first launch loads the module and sets the kernels' attributes
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < kSearchSamples; ++i) best = std::min(best, timed_run(TimingOptions{}).seconds * 1e3);
    launch_.reset();
    return best;
  });
}

std::vector<std::pair<std::string, std::string>> CudaPreparedRun::properties() const {
  std::vector<std::pair<std::string, std::string>> props = {
      {"kernel_family", std::string(conv::family_name(choice_.family))}};
  for (const auto& p : launch_->properties()) props.push_back(p);
  props.emplace_back("algo_search", search_ ? "exhaustive" : "heuristic");
  if (search_) props.emplace_back("search_ms", conv::search_summary(*search_));
  return props;
}

// The buffers hold the problem's dtype in its layout; each kernel reads them as its element type.
// Which buffer is which operand depends on the pass (a backward_data pass reads grad_output from y's
// buffer as its forward problem's input, and writes grad_input into x's).
void CudaPreparedRun::enqueue(cudaStream_t stream) {
  launch_->enqueue(conv::pass_operands(problem().pass, x_data(), w_data(), b_data(), y_data()), stream);
}

}  // namespace kbench::gpu
