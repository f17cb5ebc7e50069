#pragma once
// A kernel choice of the cuda backend (a family and the options forced with it) and its variant name,
// both ways. Plain C++, unit-tested on the CPU (test_cuda_selection.cpp).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "cuda/common/variant_knobs.hpp"
#include "cuda/kernel_family.hpp"

namespace kbench::gpu::conv {

// What the cuda backend runs: a family and the knobs a variant forces instead of the defaults (a
// reduction order, an A schedule, the tensor-core instruction, no split-K for the GEMMs; a row store
// mode for depthwise2d; where the zero fill runs for the transposed GEMMs). `--backends cuda:VARIANT`
// names it "family/knob/...", the knobs in the order of KernelChoice's members; which family takes
// which knobs is in its descriptor (variant_grammar in family_table.hpp lists them all).
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

// The element of `all` whose name is `part`.
template <class E, std::size_t N, class Name>
std::optional<E> named(const E (&all)[N], std::string_view part, Name name) {
  for (const E e : all)
    if (part == name(e)) return e;
  return std::nullopt;
}

inline std::string variant_name(const KernelChoice& c) {
  std::string name(family_name(c.family));
  if (c.order) name += fmt::format("/{}", igemm::order_name(*c.order));
  if (c.schedule) name += fmt::format("/{}", igemm::schedule_name(*c.schedule));
  if (c.stores) name += fmt::format("/{}", depthwise::store_mode_name(*c.stores));
  if (c.fill) name += fmt::format("/{}", fill_blocks_name(*c.fill));
  if (c.mma) name += fmt::format("/{}", igemm::mma_kind_name(*c.mma));
  if (c.split) name += fmt::format("/{}", igemm::split_k_name(*c.split));
  return name;
}

inline std::optional<KernelChoice> parse_variant(std::string_view name) {
  std::size_t slash = name.find('/');
  const std::optional<Family> family = parse_family(name.substr(0, slash));
  if (!family) return std::nullopt;
  KernelChoice c{.family = *family};
  while (slash != std::string_view::npos) {
    name = name.substr(slash + 1);
    slash = name.find('/');
    const std::string_view part = name.substr(0, slash);
    if (const auto o = named(kAllOrders, part, igemm::order_name); o && !c.order && !c.schedule) {
      c.order = o;  // the order comes before the schedule
    } else if (const auto s = named(kAllSchedules, part, igemm::schedule_name); s && !c.schedule) {
      c.schedule = s;
    } else if (const auto m = named(kAllStoreModes, part, depthwise::store_mode_name); m && !c.stores) {
      c.stores = m;
    } else if (const auto fb = named(kAllFillBlocks, part, fill_blocks_name); fb && !c.fill) {
      c.fill = fb;
    } else if (const auto mk = named(kAllMmaKinds, part, igemm::mma_kind_name); mk && !c.mma) {
      c.mma = mk;
    } else if (const auto sk = named(kAllSplitKs, part, igemm::split_k_name); sk && !c.split) {
      c.split = sk;
    } else {
      return std::nullopt;
    }
  }
  return c;
}

}  // namespace kbench::gpu::conv
