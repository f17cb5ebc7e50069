#pragma once
// Reading a `cuda:VARIANT` name: the family, then the parts its descriptor's knobs take, in the
// order of kVariantKnobs (variant_knob_table.hpp, which also writes names back), each at most once;
// anything else is refused with the part and what the family takes. The grammar the messages and
// docs/kernels.md show is written from the same table. Plain C++, unit-tested on the CPU
// (test_cuda_variant_names.cpp).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <vector>

#include <fmt/format.h>

#include "cuda/family_table.hpp"
#include "spec/did_you_mean.hpp"
#include "cuda/variant_knob_table.hpp"

namespace kbench::gpu::conv {

// One family's names: "implicit_gemm_tf32[/channel_blocks|/k_table|/input_patch][...]...", each
// bracketed part optional, in that order.
inline std::string variant_grammar(const FamilyDescriptor& d) {
  return std::string(family_name(d.family)) + knob_grammar(d.knobs);
}

// Every family's names, in kFamilyTable's order: "direct, depthwise2d[/split_stores|...], ...".
inline std::string variant_grammar() {
  std::string text;
  for (const FamilyDescriptor* d : kFamilyTable) {
    if (!text.empty()) text += ", ";
    text += variant_grammar(*d);
  }
  return text;
}

// A variant name read: the choice, or why there is none.
struct VariantParse {
  std::optional<KernelChoice> choice;
  std::string error;  // the part refused and what the family takes
};

namespace variant_names_detail {

// The row of kVariantKnobs, from `first` on, of a knob family `d` takes that reads `part` into `c`;
// std::size(kVariantKnobs) where none does.
inline std::size_t read_knob(const FamilyDescriptor& d, std::string_view part, std::size_t first, KernelChoice& c) {
  for (std::size_t row = first; row < std::size(kVariantKnobs); ++row)
    if ((d.knobs & kVariantKnobs[row].bit) && kVariantKnobs[row].read(part, c)) return row;
  return std::size(kVariantKnobs);
}

// Why family `d` refuses `part` after `previous` (the last part it read; "" after the name), the
// parts before it read into `read`.
inline std::string refusal(const FamilyDescriptor& d, std::string_view part, std::string_view previous,
                           const KernelChoice& read) {
  const std::string_view family = family_name(d.family);
  const std::string takes = d.knobs == 0 ? fmt::format("{} takes no knobs", family)
                                         : fmt::format("{}'s variants are {} (each [...] optional, in that order)",
                                                       family, variant_grammar(d));
  if (part.empty()) return fmt::format("an empty part; {}", takes);
  for (const VariantKnob& knob : kVariantKnobs) {
    KernelChoice probe;
    if (!knob.read(part, probe)) continue;
    if (!(d.knobs & knob.bit)) return fmt::format("'{}' ({}) is no knob of {}; {}", part, knob.what, family, takes);
    if (!knob.part(read).empty())
      return fmt::format("'{}' is a second {} after '{}'; {}", part, knob.what, knob.part(read), takes);
    return fmt::format("'{}' ({}) must come before '{}'; {}", part, knob.what, previous, takes);
  }
  return fmt::format("'{}' names no knob; {}", part, takes);
}

}  // namespace variant_names_detail

// "family/knob/...", as variant_name writes it.
inline VariantParse parse_variant_with_reason(std::string_view name) {
  std::size_t slash = name.find('/');
  const std::string_view family_part = name.substr(0, slash);
  const std::optional<Family> family = parse_family(family_part);
  if (!family) {
    std::vector<std::string_view> families;
    for (const FamilyDescriptor* d : kFamilyTable) families.push_back(family_name(d->family));
    return {std::nullopt, fmt::format("no kernel family '{}'{} (known: {})", family_part,
                                      spec::did_you_mean_suffix(family_part, families), variant_grammar())};
  }
  const FamilyDescriptor& d = descriptor(*family);
  KernelChoice c{.family = *family};
  std::size_t next = 0;  // the first row of kVariantKnobs the next part may name
  std::string_view previous;
  while (slash != std::string_view::npos) {
    name = name.substr(slash + 1);
    slash = name.find('/');
    const std::string_view part = name.substr(0, slash);
    const std::size_t row = variant_names_detail::read_knob(d, part, next, c);
    if (row == std::size(kVariantKnobs)) return {std::nullopt, variant_names_detail::refusal(d, part, previous, c)};
    next = row + 1;
    previous = part;
  }
  return {c, {}};
}

inline std::optional<KernelChoice> parse_variant(std::string_view name) {
  return parse_variant_with_reason(name).choice;
}

}  // namespace kbench::gpu::conv
