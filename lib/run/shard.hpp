#pragma once
// `--shard K/N`: one N-th of a run's work, so N machines (or N processes on one) run a suite between
// them and `kbench merge` joins their documents. The unit of work is one (workload, backend request,
// math mode) item of the runner's product, numbered in the order the runner walks it (workload, then
// backend, then math mode); item i goes to shard (i mod N) + 1. So the N shards partition the product
// exactly, each gets an equal share to within one item, and the same inputs always split the same way.
// The variants of one item (`cudnn:all`) stay together: they share the workload's prepared reference.
#include <cstddef>
#include <string>
#include <string_view>

namespace kbench {

struct Shard {
  int index = 1;  // K, 1-based
  int count = 1;  // N; 1/1 (the default) is the whole run

  bool whole() const { return count == 1; }
  bool selects(std::size_t item) const;  // item (mod N) + 1 == K
  std::string text() const;              // "2/3"
  friend bool operator==(const Shard&, const Shard&) = default;
};

// "K/N" with 1 <= K <= N <= 10000 (decimal, no sign or spaces); throws InputError naming --shard,
// what was given and the range.
Shard parse_shard(std::string_view text);

// Item number of (workload, backend entry, math mode) in the runner's order, for `Shard::selects`.
std::size_t shard_item(std::size_t workload, std::size_t backend, std::size_t math, std::size_t backend_count,
                       std::size_t math_count);

}  // namespace kbench
