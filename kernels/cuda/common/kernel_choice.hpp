#pragma once
// What a result of the cuda backend runs, named: the kernel families (the `Family` enum, kAllFamilies
// and family_name, generated from the one list, families.def; what each runs is its descriptor's
// `summary`), a choice of one with the knobs a variant forces (KernelChoice), and the knobs as data
// (kVariantKnobs: each kind's parts, its member, its place in a `cuda:FAMILY/knob/...` name, read by
// registry.hpp's parse_variant and written by variant_name here). The vocabulary the families'
// descriptors are written in: it includes no family folder. Plain C++, unit-tested on the CPU.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/types.hpp"
#include "cuda/common/variant_knobs.hpp"

namespace kbench::gpu::conv {

enum class Family {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) name,
#include "cuda/families.def"
};

inline constexpr Family kAllFamilies[] = {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) Family::name,
#include "cuda/families.def"
};

inline constexpr std::string_view family_name(Family f) {
  switch (f) {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) \
  case Family::name:                                   \
    return #name;
#include "cuda/families.def"
  }
  return "?";
}

inline std::optional<Family> parse_family(std::string_view name) {
  for (const Family f : kAllFamilies)
    if (family_name(f) == name) return f;
  return std::nullopt;
}

inline bool is_implicit_gemm(Family f) {
  return f == Family::implicit_gemm_ffma || f == Family::implicit_gemm_3xtf32 || f == Family::implicit_gemm_tf32;
}
inline bool is_transposed_phase(Family f) {
  return f == Family::transposed_phase_ffma || f == Family::transposed_phase_3xtf32 ||
         f == Family::transposed_phase_tf32;
}

// The GEMM math of a GEMM family.
inline igemm::GemmMath gemm_math(Family f) {
  if (f == Family::implicit_gemm_tf32 || f == Family::transposed_phase_tf32) return igemm::GemmMath::tf32;
  if (f == Family::implicit_gemm_3xtf32 || f == Family::transposed_phase_3xtf32) return igemm::GemmMath::tf32x3;
  return igemm::GemmMath::ffma;
}

// What the family computes in: only the plain TF32 GEMMs round to TF32.
inline MathMode family_math(Family f) {
  return gemm_math(f) == igemm::GemmMath::tf32 ? MathMode::tf32 : MathMode::fp32;
}

// --- A choice: a family and the knobs a variant forces -------------------------------------------
// A kernel choice of the cuda backend: a family and the options forced with it. Its variant name is
// written by common/kernel_choice.hpp and read by registry.hpp. Plain C++, unit-tested on the CPU.

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

// --- The knobs as data ---------------------------------------------------------------------------
// The knobs a `cuda:FAMILY/knob/...` variant name can force, as data: one row per kind of knob, in
// the order its part comes in a name, each reading and writing its KernelChoice member by the names
// of common/variant_knobs.hpp. A family's descriptor lists the kinds it takes (`knobs`); the names
// are read (registry.hpp), written (variant_name) and described (knob_grammar) from this one
// table, so they cannot disagree. Plain C++, unit-tested on the CPU (test_cuda_variant_names.cpp).

// A kind of knob, as a bit of a family's `knobs`.
enum Knob : unsigned {
  kKnobOrder = 1u << 0,     // reduction order
  kKnobSchedule = 1u << 1,  // A schedule
  kKnobMma = 1u << 2,       // tensor-core instruction
  kKnobSplit = 1u << 3,     // split-K
  kKnobStores = 1u << 4,    // row store mode
  kKnobFill = 1u << 5,      // where the zero fill runs
};

struct VariantKnob {
  Knob bit;
  std::string_view what;  // what it forces, for messages: "reduction order"
  // Sets the choice's member when `part` names one of its values; false, and `choice` as it was, otherwise.
  bool (*read)(std::string_view part, KernelChoice& choice);
  // The part naming the choice's member; "" when the choice does not force it.
  std::string_view (*part)(const KernelChoice& choice);
  // Every part it takes: "/channel_blocks|/k_table|/input_patch".
  std::string (*alternatives)();
};

namespace knob_detail {

template <auto Member, const auto& All, auto Name>
bool read(std::string_view part, KernelChoice& choice) {
  for (const auto value : All)
    if (part == Name(value)) {
      choice.*Member = value;
      return true;
    }
  return false;
}

template <auto Member, auto Name>
std::string_view part(const KernelChoice& choice) {
  return choice.*Member ? Name(*(choice.*Member)) : std::string_view();
}

template <const auto& All, auto Name>
std::string alternatives() {
  std::string text;
  for (const auto value : All) text += fmt::format("{}/{}", text.empty() ? "" : "|", Name(value));
  return text;
}

}  // namespace knob_detail

// The row of the knob held in `Member`, whose values are `All`, each named by `Name`.
template <auto Member, const auto& All, auto Name>
constexpr VariantKnob variant_knob(Knob bit, std::string_view what) {
  return {bit, what, knob_detail::read<Member, All, Name>, knob_detail::part<Member, Name>,
          knob_detail::alternatives<All, Name>};
}

// In the order their parts come in a name, which is also KernelChoice's members' order.
inline constexpr VariantKnob kVariantKnobs[] = {
    variant_knob<&KernelChoice::order, kAllOrders, igemm::order_name>(kKnobOrder, "reduction order"),
    variant_knob<&KernelChoice::schedule, kAllSchedules, igemm::schedule_name>(kKnobSchedule, "A schedule"),
    variant_knob<&KernelChoice::stores, kAllStoreModes, depthwise::store_mode_name>(kKnobStores, "row store mode"),
    variant_knob<&KernelChoice::fill, kAllFillBlocks, fill_blocks_name>(kKnobFill, "zero-fill placement"),
    variant_knob<&KernelChoice::mma, kAllMmaKinds, igemm::mma_kind_name>(kKnobMma, "tensor-core instruction"),
    variant_knob<&KernelChoice::split, kAllSplitKs, igemm::split_k_name>(kKnobSplit, "reduction split"),
};

// "family/knob/...": the family, then the part of every knob the choice forces, in the table's order.
inline std::string variant_name(const KernelChoice& c) {
  std::string name(family_name(c.family));
  for (const VariantKnob& knob : kVariantKnobs)
    if (const std::string_view part = knob.part(c); !part.empty()) name += fmt::format("/{}", part);
  return name;
}

// The parts a family taking `knobs` (Knob bits) accepts after its name, each optional, in this order:
// "[/channel_blocks|/k_table|/input_patch][/streamed_a|/resident_a]..."; "" when it takes none.
inline std::string knob_grammar(unsigned knobs) {
  std::string text;
  for (const VariantKnob& knob : kVariantKnobs)
    if (knobs & knob.bit) text += fmt::format("[{}]", knob.alternatives());
  return text;
}

}  // namespace kbench::gpu::conv
