#pragma once
// Suggestions for misspelt keys and values ("strdie" -> "stride"), so an unknown key is a one-line fix.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace kbench::spec {

// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours
// each cost 1 (a swap is the commonest typo, so it should not cost 2).
std::size_t edit_distance(std::string_view a, std::string_view b);

// A word someone might write for a known one although it is spelt nothing alike ("kernel_size").
struct KnownAlias {
  std::string_view written;
  std::string_view meant;
};

// The candidate `word` most plausibly meant: an alias first (case-insensitive), then the nearest
// candidate by edit distance when that distance is small for the word's length, then a candidate the word
// is a prefix of (at least 3 letters). nullopt when nothing is close.
std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates,
                                         std::span<const KnownAlias> aliases = {});

// " (did you mean 'X'?)" or "" — ready to append to a message.
std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates,
                                std::span<const KnownAlias> aliases = {});

}  // namespace kbench::spec
