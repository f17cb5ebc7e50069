// `cuda:VARIANT` names both ways (common/kernel_choice.hpp, registry.hpp): every family with
// every combination of the knobs it takes names and reads back as before, in the knobs' fixed order;
// a part the family does not take is refused, with the part and the family's grammar in the message;
// docs/kernels.md shows that grammar as the table writes it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cuda/registry.hpp"
#include "headline_problems.hpp"

namespace kbench {
namespace {

namespace conv = gpu::conv;
using conv::Family;
using conv::KernelChoice;

// Unset, then each value; unset alone where the family does not take the knob.
template <class E, std::size_t N>
std::vector<std::optional<E>> settings(const E (&all)[N], bool taken) {
  std::vector<std::optional<E>> out{std::nullopt};
  if (taken)
    for (const E e : all) out.emplace_back(e);
  return out;
}

// A choice and its name as the docs spell it: the family, then each forced knob's own name
// (common/variant_knobs.hpp) in the documented order.
struct Named {
  KernelChoice choice;
  std::vector<std::string> parts;  // after the family's name
  std::string name() const {
    std::string text(conv::family_name(choice.family));
    for (const std::string& p : parts) text += "/" + p;
    return text;
  }
};

// Every family with every combination of the knobs it takes.
std::vector<Named> every_valid_choice() {
  std::vector<Named> out;
  for (const conv::FamilyDescriptor* d : conv::kFamilyTable) {
    const Family f = d->family;
    const unsigned k = d->knobs;
    for (const auto order : settings(conv::kAllOrders, k & conv::kKnobOrder))
      for (const auto schedule : settings(conv::kAllSchedules, k & conv::kKnobSchedule))
        for (const auto stores : settings(conv::kAllStoreModes, k & conv::kKnobStores))
          for (const auto fill : settings(conv::kAllFillBlocks, k & conv::kKnobFill))
            for (const auto mma : settings(conv::kAllMmaKinds, k & conv::kKnobMma))
              for (const auto split : settings(conv::kAllSplitKs, k & conv::kKnobSplit)) {
                Named n{{f, order, schedule, stores, fill, mma, split}, {}};
                if (order) n.parts.emplace_back(conv::igemm::order_name(*order));
                if (schedule) n.parts.emplace_back(conv::igemm::schedule_name(*schedule));
                if (stores) n.parts.emplace_back(conv::depthwise::store_mode_name(*stores));
                if (fill) n.parts.emplace_back(conv::fill_blocks_name(*fill));
                if (mma) n.parts.emplace_back(conv::igemm::mma_kind_name(*mma));
                if (split) n.parts.emplace_back(conv::igemm::split_k_name(*split));
                out.push_back(std::move(n));
              }
  }
  return out;
}

// Every knob's every part, with the kind it belongs to.
std::vector<std::pair<std::string, unsigned>> every_part() {
  std::vector<std::pair<std::string, unsigned>> out;
  for (const auto v : conv::kAllOrders) out.emplace_back(conv::igemm::order_name(v), conv::kKnobOrder);
  for (const auto v : conv::kAllSchedules) out.emplace_back(conv::igemm::schedule_name(v), conv::kKnobSchedule);
  for (const auto v : conv::kAllStoreModes) out.emplace_back(conv::depthwise::store_mode_name(v), conv::kKnobStores);
  for (const auto v : conv::kAllFillBlocks) out.emplace_back(conv::fill_blocks_name(v), conv::kKnobFill);
  for (const auto v : conv::kAllMmaKinds) out.emplace_back(conv::igemm::mma_kind_name(v), conv::kKnobMma);
  for (const auto v : conv::kAllSplitKs) out.emplace_back(conv::igemm::split_k_name(v), conv::kKnobSplit);
  return out;
}

std::string refusal(const std::string& name) {
  const conv::VariantParse parsed = conv::parse_variant_with_reason(name);
  CHECK_FALSE(parsed.choice.has_value());
  return parsed.error;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("variant names: every family with every combination of its knobs names and reads back") {
    const std::vector<Named> valid = every_valid_choice();
    // Each family: the product, over the kinds of knob it takes, of its values and "not forced".
    std::size_t expected = 0;
    for (const conv::FamilyDescriptor* d : conv::kFamilyTable) {
      std::size_t names = 1;
      for (const conv::VariantKnob& knob : conv::kVariantKnobs)
        if (d->knobs & knob.bit) {
          const std::string parts = knob.alternatives();
          names *= static_cast<std::size_t>(std::count(parts.begin(), parts.end(), '/')) + 1;
        }
      expected += names;
    }
    CHECK(valid.size() == expected);
    for (const Named& n : valid) {
      CAPTURE(n.name());
      CHECK(conv::variant_name(n.choice) == n.name());
      const conv::VariantParse parsed = conv::parse_variant_with_reason(n.name());
      REQUIRE_MESSAGE(parsed.choice.has_value(), parsed.error);
      CHECK(*parsed.choice == n.choice);
      CHECK(conv::variant_name(*parsed.choice) == n.name());
    }
  }

  TEST_CASE("variant names: another family's knob, a repeated knob, knobs out of order and unknown words are refused") {
    const std::vector<std::pair<std::string, unsigned>> parts = every_part();
    for (const Named& n : every_valid_choice()) {
      CAPTURE(n.name());
      const unsigned takes = conv::descriptor(n.choice.family).knobs;
      for (const auto& [part, kind] : parts)
        if (!(takes & kind)) CHECK_FALSE(conv::parse_variant(n.name() + "/" + part));
      CHECK_FALSE(conv::parse_variant(n.name() + "/bogus"));
      CHECK_FALSE(conv::parse_variant(n.name() + "/"));
      for (std::size_t i = 0; i < n.parts.size(); ++i) {
        Named repeated = n;
        repeated.parts.insert(repeated.parts.begin() + static_cast<std::ptrdiff_t>(i), n.parts[i]);
        CHECK_FALSE(conv::parse_variant(repeated.name()));
        for (std::size_t j = i + 1; j < n.parts.size(); ++j) {
          Named swapped = n;
          std::swap(swapped.parts[i], swapped.parts[j]);
          CHECK_FALSE(conv::parse_variant(swapped.name()));
        }
      }
    }
  }

  TEST_CASE("variant names: the message names the part refused and what the family takes") {
    const std::string igemm =
        "implicit_gemm_tf32's variants are "
        "implicit_gemm_tf32[/channel_blocks|/k_table|/input_patch][/streamed_a|/resident_a][/mma_sync|/wgmma]"
        "[/split_k|/no_split_k] (each [...] optional, in that order)";
    CHECK(refusal("implicit_gemm_tf32/bogus") == "'bogus' names no knob; " + igemm);
    CHECK(refusal("implicit_gemm_tf32/k_table/input_patch") ==
          "'input_patch' is a second reduction order after 'k_table'; " + igemm);
    CHECK(refusal("implicit_gemm_tf32/resident_a/channel_blocks") ==
          "'channel_blocks' (reduction order) must come before 'resident_a'; " + igemm);
    CHECK(refusal("implicit_gemm_tf32/no_fill_blocks") ==
          "'no_fill_blocks' (zero-fill placement) is no knob of implicit_gemm_tf32; " + igemm);
    CHECK(refusal("implicit_gemm_tf32/") == "an empty part; " + igemm);
    CHECK(refusal("direct/k_table") == "'k_table' (reduction order) is no knob of direct; direct takes no knobs");
    CHECK(refusal("depthwise2d/no_split_k") ==
          "'no_split_k' (reduction split) is no knob of depthwise2d; depthwise2d's variants are "
          "depthwise2d[/split_stores|/realigned_stores|/bulk_copies|/bulk_pipelined] (each [...] optional, in that "
          "order)");
    const std::string unknown = refusal("winograd/k_table");
    CHECK(unknown.starts_with("no kernel family 'winograd' (known: direct, depthwise2d[/split_stores|"));
    CHECK(contains(unknown, conv::variant_grammar()));
  }

  TEST_CASE("variant names: a choice forcing a knob its family does not take is outside its envelope") {
    const KernelChoice direct_k_table{.family = Family::direct, .order = conv::igemm::KOrder::k_table};
    const Support s = conv::choice_envelope(direct_k_table, testing::headline76(), MathMode::fp32);
    CHECK_FALSE(s.ok);
    CHECK(s.reason == "direct: its variants force no reduction order ('k_table')");
    const KernelChoice gemm_stores{.family = Family::implicit_gemm_tf32, .stores = conv::depthwise::StoreMode::bulk};
    CHECK(conv::choice_envelope(gemm_stores, testing::headline76(), MathMode::tf32).reason ==
          "implicit_gemm_tf32: its variants force no row store mode ('bulk_copies')");
  }

  TEST_CASE("variant names: docs/kernels.md lists every family's grammar, in the table's order, as it writes it") {
    std::ifstream in(std::string(KBENCH_SOURCE_DIR) + "/docs/kernels.md");
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    // The fenced block after the sentence that introduces it: one line per family, nothing else.
    const std::string doc = text.str();
    const std::size_t intro = doc.find("The names each family takes");
    REQUIRE(intro != std::string::npos);
    const std::size_t open = doc.find("```\n", intro);
    REQUIRE(open != std::string::npos);
    const std::size_t close = doc.find("```", open + 4);
    REQUIRE(close != std::string::npos);
    std::vector<std::string> lines;
    std::stringstream block(doc.substr(open + 4, close - open - 4));
    for (std::string line; std::getline(block, line);) lines.push_back(line);
    std::vector<std::string> expected;
    for (const conv::FamilyDescriptor* d : conv::kFamilyTable) expected.push_back(conv::variant_grammar(*d));
    CHECK(lines == expected);
  }
}

}  // namespace kbench
