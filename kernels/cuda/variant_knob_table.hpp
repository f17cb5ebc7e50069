#pragma once
// The knobs a `cuda:FAMILY/knob/...` variant name can force, as data: one row per kind of knob, in
// the order its part comes in a name, each reading and writing its KernelChoice member by the names
// of common/variant_knobs.hpp. A family's descriptor lists the kinds it takes (`knobs`); the names
// are read (variant_names.hpp), written (variant_name) and described (knob_grammar) from this one
// table, so they cannot disagree. Plain C++, unit-tested on the CPU (test_cuda_variant_names.cpp).
#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "cuda/kernel_choice.hpp"

namespace kbench::gpu::conv {

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
