#include "spec/spatial_fields.hpp"

#include <fmt/format.h>

#include "problem/problem_validation.hpp"

namespace kbench::spec {

namespace {

std::string dims_word(int rank) { return rank == 1 ? "1 spatial dim" : fmt::format("{} spatial dims", rank); }
std::string entries_word(int count) { return count == 1 ? "1 entry" : fmt::format("{} entries", count); }

// Padding may be written as any integer so that a negative one gets PyTorch's own wording, not a range.
std::int64_t read_pad(const SpecReader& reader, const Located& where) {
  const std::int64_t value = reader.read_integer(where, -kMaxProblemDimension, kMaxProblemDimension);
  if (value < 0)
    reader.fail(where, fmt::format("negative padding {} is not supported; expected an integer from 0 to "
                                   "2147483647 (2^31-1)",
                                   value));
  return value;
}

}  // namespace

Located FieldSite::locate(int dim) const {
  if (dim < 0) return {YAML::Node(), path, position};
  return locate_entry(dim + first_spatial_entry);
}

Located FieldSite::locate_entry(int entry) const {
  if (entry < 0 || entry >= static_cast<int>(entries.size())) return {YAML::Node(), path, position};
  return {YAML::Node(), element_path(path, static_cast<std::size_t>(entry)), entries[entry]};
}

FieldSite default_site(const MappingFields& mapping, std::string_view key) {
  return FieldSite{mapping.path_of(key), mapping.position(), {}, 0};
}

InputShape read_input_shape(const SpecReader& reader, const Located& where, FieldSite& site) {
  site = FieldSite{where.path, where.position, {}, 2};
  const auto entries =
      reader.read_sequence(where, "a list [N, C, spatial...] with 1 to 3 spatial sizes, e.g. [8, 3, 32, 32]");
  if (entries.size() < 3 || entries.size() > 5)
    reader.fail(where, fmt::format("got {} entries; expected [N, C, spatial...] with 1 to 3 spatial sizes "
                                   "(3 to 5 entries), e.g. [8, 3, 32, 32] for a 2D convolution",
                                   entries.size()));
  InputShape shape;
  shape.spatial_rank = static_cast<int>(entries.size()) - 2;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    site.entries.push_back(entries[i].position);
    const std::int64_t value = reader.read_integer(entries[i], 1, kMaxProblemDimension);
    if (i == 0)
      shape.batch = value;
    else if (i == 1)
      shape.channels = value;
    else
      shape.spatial[static_cast<int>(i) - 2] = value;
  }
  return shape;
}

Dims read_per_dim(const SpecReader& reader, const Located& where, int rank, std::int64_t min, Dims defaults,
                  FieldSite& site) {
  site = FieldSite{where.path, where.position, {}, 0};
  Dims values = defaults;
  if (!where.node.IsSequence()) {
    const std::int64_t value = reader.read_integer(where, min, kMaxProblemDimension);
    for (int d = 0; d < rank; ++d) values[d] = value;
    return values;
  }
  const auto entries = reader.read_sequence(where, "");
  if (static_cast<int>(entries.size()) != rank)
    reader.fail(where, fmt::format("got {} entries but input has {}; expected one integer per spatial dim "
                                   "({}) or a single integer for all of them",
                                   entries.size(), dims_word(rank), entries_word(rank)));
  for (int d = 0; d < rank; ++d) {
    site.entries.push_back(entries[d].position);
    values[d] = reader.read_integer(entries[d], min, kMaxProblemDimension);
  }
  return values;
}

Padding read_padding(const SpecReader& reader, const Located& where, int rank, FieldSite& site) {
  site = FieldSite{where.path, where.position, {}, 0};
  Padding padding;
  if (!where.node.IsSequence()) {
    const std::int64_t value = read_pad(reader, where);
    for (int d = 0; d < rank; ++d) padding.before[d] = padding.after[d] = value;
    return padding;
  }
  const auto entries = reader.read_sequence(where, "");
  if (static_cast<int>(entries.size()) != rank) {
    // [1, 2] on a 1D problem usually means one [before, after] pair: say how to write that.
    const std::string hint =
        rank == 1 && entries.size() == 2 ? " (for different before/after padding write [[before, after]])" : "";
    reader.fail(where, fmt::format("got {} entries but input has {}; expected one entry per spatial dim ({}), "
                                   "each an integer or a [before, after] pair, or a single integer for all{}",
                                   entries.size(), dims_word(rank), entries_word(rank), hint));
  }
  for (int d = 0; d < rank; ++d) {
    site.entries.push_back(entries[d].position);
    if (!entries[d].node.IsSequence()) {
      padding.before[d] = padding.after[d] = read_pad(reader, entries[d]);
      continue;
    }
    const auto pair = reader.read_sequence(entries[d], "");
    if (pair.size() != 2)
      reader.fail(entries[d], fmt::format("got {} entries; expected a [before, after] pair of integers", pair.size()));
    padding.before[d] = read_pad(reader, pair[0]);
    padding.after[d] = read_pad(reader, pair[1]);
  }
  return padding;
}

}  // namespace kbench::spec
