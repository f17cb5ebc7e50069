// The cuda backend's one list of families (kernels/cuda/families.def): the enum, kAllFamilies,
// family_name, the descriptor table and the backend's description all come from it, so they agree
// row for row; a family's descriptor names its own row.
#include <doctest/doctest.h>

#include <cstddef>
#include <iterator>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "cuda/registry.hpp"

namespace kbench {
namespace {

namespace conv = gpu::conv;

}  // namespace

TEST_SUITE("cuda_registry") {
  TEST_CASE("registry: every row of families.def is one family, its descriptor and its name") {
    REQUIRE(std::size(conv::kFamilyTable) == std::size(conv::kAllFamilies));
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < std::size(conv::kAllFamilies); ++i) {
      const conv::Family f = conv::kAllFamilies[i];
      CAPTURE(conv::family_name(f));
      CHECK(static_cast<std::size_t>(f) == i);
      CHECK(&conv::descriptor(f) == conv::kFamilyTable[i]);
      CHECK(conv::descriptor(f).family == f);
      CHECK(conv::parse_family(conv::family_name(f)) == f);
      CHECK_FALSE(conv::descriptor(f).summary.empty());
      CHECK(names.insert(conv::family_name(f)).second);
    }
    CHECK_FALSE(conv::parse_family("no_such_family").has_value());
  }

  TEST_CASE("registry: the backend's description names every family with its summary, in the table's order") {
    const std::string text = conv::backend_description();
    std::size_t from = 0;
    for (const conv::FamilyDescriptor* d : conv::kFamilyTable) {
      const std::string entry = fmt::format("{}: {}", conv::family_name(d->family), d->summary);
      CAPTURE(entry);
      const std::size_t at = text.find(entry, from);
      REQUIRE(at != std::string::npos);
      from = at + entry.size();
    }
  }
}

}  // namespace kbench
