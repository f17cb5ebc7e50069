#include "run/shard.hpp"

#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench {

namespace {

constexpr int kMaxShards = 10000;

// A plain decimal in [1, kMaxShards], or nothing: "+1", " 1", "1.0" and "0x2" are refused.
std::optional<int> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < 1 || value > kMaxShards) return std::nullopt;
  return value;
}

}  // namespace

bool Shard::selects(std::size_t item) const {
  return item % static_cast<std::size_t>(count) == static_cast<std::size_t>(index - 1);
}

std::size_t shard_item(std::size_t workload, std::size_t backend, std::size_t math, std::size_t backend_count,
                       std::size_t math_count) {
  return (workload * backend_count + backend) * math_count + math;
}

std::string Shard::text() const { return fmt::format("{}/{}", index, count); }

Shard parse_shard(std::string_view text) {
  const auto fail = [&](std::string_view why) -> Shard {
    throw InputError(
        fmt::format("--shard: got '{}': {}; expected K/N with N from 1 to {} and K from 1 to N, e.g. "
                    "--shard 2/3",
                    text, why, kMaxShards));
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return fail("no '/'");
  const auto index = parse_count(text.substr(0, slash));
  const auto count = parse_count(text.substr(slash + 1));
  if (!count) return fail(fmt::format("N must be an integer from 1 to {}", kMaxShards));
  if (!index || *index > *count) return fail(fmt::format("K must be an integer from 1 to N ({})", *count));
  return Shard{*index, *count};
}

}  // namespace kbench
