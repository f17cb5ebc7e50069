#include "cuda/kernel_plan.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "cuda/depthwise/depthwise_launch.hpp"
#include "cuda/direct/direct_launch.hpp"
#include "cuda/direct/direct_tiled_index.hpp"
#include "cuda/implicit_gemm/igemm_plan.hpp"
#include "cuda/transposed/phase_plan.hpp"

namespace kbench::gpu::conv {

namespace {

class DirectPlan final : public KernelPlan {
 public:
  explicit DirectPlan(const ConvProblem& problem) : desc_(make_direct_desc(problem)) {}
  std::string implementation() const override { return "direct"; }
  std::vector<std::pair<std::string, std::string>> properties() const override {
    return {{"threads", "one per output element (grid-stride)"}, {"launches", "1"}};
  }
  void enqueue(const Operands& ops, cudaStream_t stream) override { launch_direct(desc_, ops, stream); }

 private:
  DirectDesc desc_;
};

class DepthwisePlan final : public KernelPlan {
 public:
  DepthwisePlan(const ConvProblem& p, std::optional<depthwise::StoreMode> stores)
      : tiling_(depthwise::make_tiling(depthwise::plane_shape(p))) {
    tiling_.stores = stores.value_or(depthwise::StoreMode::split);
  }
  // "depthwise2d/k3", "depthwise2d/k3_centred", with "/realigned_stores" when forced.
  std::string implementation() const override {
    const bool realigned = tiling_.stores == depthwise::StoreMode::realigned;
    return fmt::format("depthwise2d/k{}{}{}", tiling_.kernel, tiling_.pad_left != 0 ? "_centred" : "",
                       realigned ? "/realigned_stores" : "");
  }
  std::vector<std::pair<std::string, std::string>> properties() const override {
    return {{"block", fmt::format("{} threads, {} rows x {} columns", depthwise::kThreads, depthwise::kStripRows,
                                  depthwise::kSegmentCols)},
            {"blocks", std::to_string(tiling_.blocks())},
            {"store_width_floats", std::to_string(depthwise::store_width(tiling_.out_w))},
            {"row_stores", depthwise::store_mode_name(tiling_.stores)},
            {"launches", "1"}};
  }
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise::launch_depthwise2d(tiling_, ops, stream);
  }

 private:
  depthwise::Tiling tiling_;
};

class DepthwiseBulkPlan final : public KernelPlan {
 public:
  DepthwiseBulkPlan(const ConvProblem& p, depthwise::StoreMode mode) : tiling_(depthwise_bulk_plan(p, mode).tiling) {
    depthwise::configure_depthwise2d_bulk(tiling_);
    blocks_ = tiling_.stages == 1
                  ? tiling_.total_strips()
                  : std::min(tiling_.total_strips(), depthwise::depthwise2d_bulk_resident_blocks(tiling_));
  }
  // "depthwise2d/k3/bulk_copies", "depthwise2d/k3/bulk_pipelined".
  std::string implementation() const override {
    return fmt::format("depthwise2d/k{}/{}", tiling_.kernel, depthwise::store_mode_name(mode()));
  }
  std::vector<std::pair<std::string, std::string>> properties() const override {
    return {{"block", fmt::format("{} threads, strips of {} rows x {} columns", depthwise::kBulkThreads,
                                  tiling_.strip_rows, tiling_.out_w)},
            {"blocks", std::to_string(blocks_)},
            {"strips", std::to_string(tiling_.total_strips())},
            {"stages", std::to_string(tiling_.stages)},
            {"shared_memory_bytes", std::to_string(tiling_.smem_bytes())},
            {"row_stores", depthwise::store_mode_name(mode())},
            {"launches", "1"}};
  }
  void enqueue(const Operands& ops, cudaStream_t stream) override {
    depthwise::launch_depthwise2d_bulk(tiling_, blocks_, ops, stream);
  }

 private:
  depthwise::StoreMode mode() const {
    return tiling_.stages == 2 ? depthwise::StoreMode::bulk_pipelined : depthwise::StoreMode::bulk;
  }
  depthwise::BulkTiling tiling_;
  std::int64_t blocks_ = 0;
};

class DirectTiledPlan final : public KernelPlan {
 public:
  explicit DirectTiledPlan(const ConvProblem& p) : desc_(direct_tiled::make_tiled_plan(p).desc) {}
  // "direct_tiled/k3" for the unrolled square-kernel instances, "direct_tiled/k1x5" otherwise;
  // transposed, "direct_tiled/transposed_k4x4_pairs" (at most 2 x 2 taps a phase, unrolled) or
  // "direct_tiled/transposed_k5x5".
  std::string implementation() const override {
    const int instance = direct_tiled::instance_kernel(desc_);
    if (instance == direct_tiled::kTransposedPairs)
      return fmt::format("direct_tiled/transposed_k{}x{}_pairs", desc_.kernel_h, desc_.kernel_w);
    if (instance == direct_tiled::kTransposedInstance)
      return fmt::format("direct_tiled/transposed_k{}x{}", desc_.kernel_h, desc_.kernel_w);
    if (instance != 0) return fmt::format("direct_tiled/k{}", desc_.kernel_h);
    return fmt::format("direct_tiled/k{}x{}", desc_.kernel_h, desc_.kernel_w);
  }
  std::vector<std::pair<std::string, std::string>> properties() const override {
    return {{"block", fmt::format("{} threads, {} rows x {} columns of output, {} per thread", direct_tiled::kThreads,
                                  desc_.tile_rows(), desc_.tile_cols(), desc_.per_thread)},
            {"input_windows", fmt::format("{} of {} x {} floats in shared memory (input channels of a group x depth "
                                          "taps)",
                                          desc_.stack(), desc_.window_rows, desc_.window_cols)},
            {"smem_bytes", std::to_string(desc_.smem_bytes())},
            {"out_channels_per_group", std::to_string(desc_.multiplier)},
            {"blocks", std::to_string(desc_.blocks())},
            {"launches", "1"}};
  }
  void enqueue(const Operands& ops, cudaStream_t stream) override { direct_tiled::launch_direct_tiled(desc_, ops, stream); }

 private:
  direct_tiled::TiledDesc desc_;
};

}  // namespace

std::unique_ptr<KernelPlan> make_kernel_plan(const KernelChoice& choice, const ConvProblem& problem, MathMode math) {
  if (const Support s = choice_envelope(choice, problem, math); !s)
    throw std::invalid_argument(fmt::format("cuda backend: {} cannot run this problem: {}", variant_name(choice),
                                            s.reason));
  const Family family = choice.family;
  if (family == Family::direct) return std::make_unique<DirectPlan>(problem);
  if (family == Family::depthwise2d && choice.stores && depthwise::is_bulk(*choice.stores))
    return std::make_unique<DepthwiseBulkPlan>(problem, *choice.stores);
  if (family == Family::depthwise2d) return std::make_unique<DepthwisePlan>(problem, choice.stores);
  if (family == Family::direct_tiled) return std::make_unique<DirectTiledPlan>(problem);
  if (is_implicit_gemm(family)) return make_igemm_plan(choice, problem);
  return make_phase_plan(choice, problem);
}

std::int64_t plan_device_bytes(const KernelChoice& choice, const ConvProblem& problem) {
  if (is_implicit_gemm(choice.family)) return igemm_plan_device_bytes(choice, problem);
  if (is_transposed_phase(choice.family)) return phase_plan_device_bytes(problem);
  return 0;
}

}  // namespace kbench::gpu::conv
