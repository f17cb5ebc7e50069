#include "verify/check_points.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "problem/conv_pass.hpp"

namespace kbench {

namespace {

std::int64_t flat_index(const std::vector<std::int64_t>& coord, const std::vector<std::int64_t>& extents) {
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < extents.size(); ++d) flat = flat * extents[d] + coord[d];
  return flat;
}

}  // namespace

std::vector<std::int64_t> choose_check_points(const ConvProblem& p, std::int64_t max_points, std::uint64_t seed) {
  const std::int64_t total = computed_elements(p);
  std::vector<std::int64_t> points;
  if (total <= max_points) {
    points.resize(static_cast<std::size_t>(total));
    for (std::int64_t i = 0; i < total; ++i) points[static_cast<std::size_t>(i)] = i;
    return points;
  }
  const auto extents = computed_extents(p);
  const std::size_t dims = extents.size();
  std::mt19937_64 rng(seed ^ 0x5eed'c0de'cafe'f00dULL);
  const auto random_coord = [&] {
    std::vector<std::int64_t> coord(dims);
    for (std::size_t d = 0; d < dims; ++d)
      coord[d] = std::uniform_int_distribution<std::int64_t>(0, extents[d] - 1)(rng);
    return coord;
  };

  // Every corner: each dimension at its first or last index (boundary handling lives there).
  for (std::uint32_t mask = 0; mask < (1u << dims); ++mask) {
    std::vector<std::int64_t> coord(dims);
    for (std::size_t d = 0; d < dims; ++d) coord[d] = (mask >> d) & 1u ? extents[d] - 1 : 0;
    points.push_back(flat_index(coord, extents));
  }
  // A quarter of the budget on borders and faces: one dimension pinned to an edge (or one step in).
  const std::int64_t border_points = max_points / 4;
  for (std::int64_t i = 0; i < border_points; ++i) {
    auto coord = random_coord();
    const std::size_t d = static_cast<std::size_t>(i) % dims;
    const std::int64_t from_edge = std::min<std::int64_t>((i / static_cast<std::int64_t>(dims)) % 2, extents[d] - 1);
    coord[d] = (i / static_cast<std::int64_t>(2 * dims)) % 2 ? extents[d] - 1 - from_edge : from_edge;
    points.push_back(flat_index(coord, extents));
  }
  // grad_bias, after grad_weight in a backward_weights result, is a sliver of it: its ends and a
  // sixteenth of the budget, so every check reaches it.
  if (const std::int64_t bias = computed_bias_elements(p); bias > 0) {
    const std::int64_t first = total - bias;
    points.push_back(first);
    points.push_back(total - 1);
    for (std::int64_t i = 0; i < max_points / 16; ++i)
      points.push_back(first + std::uniform_int_distribution<std::int64_t>(0, bias - 1)(rng));
  }
  // The rest uniformly at random over the whole output.
  while (static_cast<std::int64_t>(points.size()) < max_points)
    points.push_back(std::uniform_int_distribution<std::int64_t>(0, total - 1)(rng));

  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

}  // namespace kbench
