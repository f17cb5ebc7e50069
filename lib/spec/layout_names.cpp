#include "spec/layout_names.hpp"

#include <fmt/format.h>

namespace kbench::spec {

namespace {

// The names a problem of `rank` spatial dims may use, for the "expected" half of a message.
std::string names_for_rank(int rank) {
  switch (rank) {
    case 1: return "nchw or nhwc (or their 1-D names ncw and nwc)";
    case 3: return "nchw or nhwc (or their 3-D names ncdhw and ndhwc)";
    default: return "nchw or nhwc";
  }
}

}  // namespace

std::optional<LayoutName> parse_layout_name(std::string_view text) {
  const auto layout = parse_layout(text);
  if (!layout) return std::nullopt;
  const int rank = (text == "ncw" || text == "nwc") ? 1 : (text == "ncdhw" || text == "ndhwc") ? 3 : 0;
  return LayoutName{*layout, rank};
}

std::optional<std::string> layout_name_problem(std::string_view text, int rank) {
  const auto name = parse_layout_name(text);
  if (!name)
    return fmt::format("unknown layout '{}'{}; expected {} (channels first or channels last)", text,
                       did_you_mean_suffix(text, kLayoutNames, kLayoutAliases), names_for_rank(rank));
  if (name->rank != 0 && name->rank != rank)
    return fmt::format("layout {} is the {}-D name, but the input has {} spatial dim{}; expected {}", text, name->rank,
                       rank, rank == 1 ? "" : "s", names_for_rank(rank));
  return std::nullopt;
}

}  // namespace kbench::spec
