#include "spec/did_you_mean.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace kbench::spec {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rolling rows: the swap rule looks two rows back.
  const std::size_t n = b.size();
  std::vector<std::size_t> before_previous(n + 1), previous(n + 1), current(n + 1);
  for (std::size_t j = 0; j <= n; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before_previous[j - 2] + 1);
    }
    before_previous.swap(previous);
    previous.swap(current);
  }
  return previous[n];
}

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates,
                                         std::span<const KnownAlias> aliases) {
  const std::string folded = lower(word);
  for (const KnownAlias& alias : aliases)
    if (folded == alias.written) return std::string(alias.meant);

  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (std::string_view candidate : candidates) {
    const std::size_t distance = edit_distance(folded, candidate);
    // Allow about one edit per three letters (at least two), else every short word "matches" everything.
    const std::size_t allowed = std::max<std::size_t>(2, candidate.size() / 3);
    if (distance > allowed || distance >= candidate.size()) continue;
    if (!best || distance < best_distance) {
      best = std::string(candidate);
      best_distance = distance;
    }
  }
  if (best) return best;
  // A truncated word ("stdev" for "stdev_ms", "output_pad") is too far by edits but plainly meant.
  constexpr std::size_t min_prefix = 3;
  if (folded.size() >= min_prefix)
    for (std::string_view candidate : candidates)
      if (candidate.starts_with(folded)) return std::string(candidate);
  return std::nullopt;
}

std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates,
                                std::span<const KnownAlias> aliases) {
  const auto match = closest_match(word, candidates, aliases);
  return match ? fmt::format(" (did you mean '{}'?)", *match) : std::string();
}

}  // namespace kbench::spec
