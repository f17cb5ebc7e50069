#pragma once
// A kernel choice of the cuda backend: a family and the options forced with it. Its variant name is
// written by variant_knob_table.hpp and read by variant_names.hpp. Plain C++, unit-tested on the CPU.
#include <optional>

#include "cuda/common/variant_knobs.hpp"
#include "cuda/kernel_family.hpp"

namespace kbench::gpu::conv {

// What the cuda backend runs: a family and the knobs a variant forces instead of the defaults (a
// reduction order, an A schedule, the tensor-core instruction, no split-K for the GEMMs; a row store
// mode for depthwise2d; where the zero fill runs for the transposed GEMMs). `--backends cuda:VARIANT`
// names it "family/knob/...", the knobs in the order of KernelChoice's members (kVariantKnobs);
// which family takes which knobs is in its descriptor.
// An aggregate: build it with designated initializers, naming only the knobs forced
// (KernelChoice{.family = Family::implicit_gemm_tf32, .split = igemm::SplitK::none}).
struct KernelChoice {
  Family family = Family::direct;
  std::optional<igemm::KOrder> order;
  std::optional<igemm::ASchedule> schedule;
  std::optional<depthwise::StoreMode> stores;
  std::optional<FillBlocks> fill;
  std::optional<igemm::MmaKind> mma;
  std::optional<igemm::SplitK> split;

  bool operator==(const KernelChoice&) const = default;
};

inline constexpr igemm::KOrder kAllOrders[] = {igemm::KOrder::channel_blocks, igemm::KOrder::k_table,
                                               igemm::KOrder::input_patch};
inline constexpr igemm::ASchedule kAllSchedules[] = {igemm::ASchedule::streamed, igemm::ASchedule::resident};
inline constexpr depthwise::StoreMode kAllStoreModes[] = {depthwise::StoreMode::split, depthwise::StoreMode::realigned,
                                                          depthwise::StoreMode::bulk,
                                                          depthwise::StoreMode::bulk_pipelined};
inline constexpr FillBlocks kAllFillBlocks[] = {FillBlocks::trailing, FillBlocks::none};
inline constexpr igemm::MmaKind kAllMmaKinds[] = {igemm::MmaKind::mma_sync, igemm::MmaKind::wgmma};
inline constexpr igemm::SplitK kAllSplitKs[] = {igemm::SplitK::automatic, igemm::SplitK::none};

}  // namespace kbench::gpu::conv
