#include "cuda/kernel_plan.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "cuda/depthwise/depthwise_launch.hpp"
#include "cuda/direct/direct_launch.hpp"
#include "cuda/direct/direct_tiled_index.hpp"
#include "cuda/implicit_gemm/igemm_plan.hpp"
#include "cuda/transposed/forward_weights_launch.hpp"
#include "cuda/transposed/phase_plan.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu::conv {

namespace {

class DirectPlan final : public KernelPlan {
 public:
  DirectPlan(const ConvProblem& p, KernelDescription description)
      : KernelPlan(std::move(description)), desc_(make_direct_desc(p)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override { launch_direct(desc_, ops, stream); }

 private:
  DirectDesc desc_;
};

class DepthwisePlan final : public KernelPlan {
 public:
  DepthwisePlan(const ConvProblem& p, std::optional<depthwise::StoreMode> stores, KernelDescription description)
      : KernelPlan(std::move(description)), tiling_(depthwise_tiling(p, stores)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise::launch_depthwise2d(tiling_, ops, stream);
  }

 private:
  depthwise::Tiling tiling_;
};

class DepthwiseBulkPlan final : public KernelPlan {
 public:
  DepthwiseBulkPlan(const ConvProblem& p, depthwise::StoreMode mode, const LaunchDevice& device,
                    KernelDescription description)
      : KernelPlan(std::move(description)),
        tiling_(depthwise_bulk_plan(p, mode).tiling),
        blocks_(description_detail::depthwise_bulk_blocks(tiling_, device)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise::launch_depthwise2d_bulk(tiling_, blocks_, ops, stream);
  }

 private:
  depthwise::BulkTiling tiling_;
  std::int64_t blocks_ = 0;
};

class DirectTiledPlan final : public KernelPlan {
 public:
  DirectTiledPlan(const ConvProblem& p, KernelDescription description)
      : KernelPlan(std::move(description)), desc_(direct_tiled::make_tiled_plan(p).desc) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override { direct_tiled::launch_direct_tiled(desc_, ops, stream); }

 private:
  direct_tiled::TiledDesc desc_;
};

// A stride-1 transposed convolution on a forward kernel (forward_equivalent.hpp): each execution
// first writes the forward weights from the run's own, then runs the forward plan on them.
class AsForwardPlan final : public KernelPlan {
 public:
  AsForwardPlan(const ConvProblem& forward, std::unique_ptr<KernelPlan> forward_plan, KernelDescription description)
      : KernelPlan(std::move(description)),
        forward_(forward),
        weights_(forward.weight_elements()),
        forward_plan_(std::move(forward_plan)) {}
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    launch_forward_weights(forward_, ops.w, weights_.data(), stream);
    forward_plan_->enqueue(Operands{ops.x, weights_.data(), ops.bias, ops.y}, stream);
  }

 private:
  ConvProblem forward_;
  DeviceBuffer<float> weights_;
  std::unique_ptr<KernelPlan> forward_plan_;
};

// The current device's facts that the choice's description and launch count with. The bulk-copy
// kernels are configured here (their shared memory opted in): the pipelined grid is as many blocks
// as stay resident, which the occupancy query counts for the configured kernel.
LaunchDevice current_launch_device(const KernelChoice& choice, const ConvProblem& problem) {
  int device = 0;
  LaunchDevice facts;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&facts.sms, cudaDevAttrMultiProcessorCount, device));
  if (choice.stores && depthwise::is_bulk(*choice.stores)) {
    const depthwise::BulkTiling tiling = depthwise_bulk_plan(problem, *choice.stores).tiling;
    depthwise::configure_depthwise2d_bulk(tiling);
    if (tiling.stages > 1) facts.bulk_resident_blocks = depthwise::depthwise2d_bulk_resident_blocks(tiling);
  }
  return facts;
}

// The plan of a problem the family runs as it is (choice_envelope holds).
std::unique_ptr<KernelPlan> make_plan(const KernelChoice& choice, const ConvProblem& problem,
                                      const LaunchDevice& device, KernelDescription description) {
  const Family family = choice.family;
  if (family == Family::direct) return std::make_unique<DirectPlan>(problem, std::move(description));
  if (family == Family::depthwise2d && choice.stores && depthwise::is_bulk(*choice.stores))
    return std::make_unique<DepthwiseBulkPlan>(problem, *choice.stores, device, std::move(description));
  if (family == Family::depthwise2d)
    return std::make_unique<DepthwisePlan>(problem, choice.stores, std::move(description));
  if (family == Family::direct_tiled) return std::make_unique<DirectTiledPlan>(problem, std::move(description));
  if (is_implicit_gemm(family)) return make_igemm_plan(choice, problem, device, std::move(description));
  return make_phase_plan(choice, problem, device, std::move(description));
}

}  // namespace

std::unique_ptr<KernelPlan> make_kernel_plan(const KernelChoice& choice, const ConvProblem& problem, MathMode math) {
  if (const Support s = choice_envelope(choice, problem, math); !s)
    throw std::invalid_argument(fmt::format("cuda backend: {} cannot run this problem: {}", variant_name(choice),
                                            s.reason));
  const std::optional<ConvProblem> forward = forward_problem_for(choice.family, problem);
  const LaunchDevice device = current_launch_device(choice, forward.value_or(problem));
  KernelDescription description = describe_kernel(choice, problem, device);
  if (!forward) return make_plan(choice, problem, device, std::move(description));
  std::unique_ptr<KernelPlan> forward_plan =
      make_plan(choice, *forward, device, describe_kernel(choice, *forward, device));
  return std::make_unique<AsForwardPlan>(*forward, std::move(forward_plan), std::move(description));
}

std::int64_t plan_device_bytes(const KernelChoice& choice, const ConvProblem& problem, const LaunchDevice& device) {
  if (const std::optional<ConvProblem> forward = forward_problem_for(choice.family, problem))
    return plan_device_bytes(choice, *forward, device) + forward->weight_elements() * std::int64_t{sizeof(float)};
  if (is_implicit_gemm(choice.family)) return igemm_plan_device_bytes(choice, problem, device);
  if (is_transposed_phase(choice.family)) return phase_plan_device_bytes(choice, problem, device);
  return 0;
}

}  // namespace kbench::gpu::conv
