#pragma once
// How a spec (or --axis) writes a layout: nchw / nhwc for every spatial rank, and the rank-specific
// names PyTorch and cuDNN users also write (ncw / nwc for 1-D, ncdhw / ndhwc for 3-D) as synonyms.
// A rank-specific name must match the problem's rank: `ncdhw` on a 2-D input is a slip worth
// refusing (it says the writer meant another tensor), not a synonym to accept silently.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/types.hpp"
#include "spec/did_you_mean.hpp"

namespace kbench::spec {

inline constexpr std::array<std::string_view, 6> kLayoutNames = {"nchw", "nhwc", "ncw", "nwc", "ncdhw", "ndhwc"};

inline constexpr std::array<KnownAlias, 6> kLayoutAliases = {{
    {"channels_first", "nchw"},
    {"channels_last", "nhwc"},
    {"contiguous_format", "nchw"},
    {"nlc", "nwc"},
    {"ncl", "ncw"},
    {"krsc", "nhwc"},
}};

// The layout `text` names and the spatial rank it is written for (0: every rank); nullopt if unknown.
struct LayoutName {
  Layout layout = Layout::nchw;
  int rank = 0;
};
std::optional<LayoutName> parse_layout_name(std::string_view text);

// Why `text` cannot be the layout of a problem of `rank` spatial dims, as "<problem>; expected ..."
// for an error message; nullopt when it can (then parse_layout(text) is the layout).
std::optional<std::string> layout_name_problem(std::string_view text, int rank);

}  // namespace kbench::spec
