#pragma once
// Readers for the shape-like keys of a workload — input, per-dimension values (kernel, stride, ...) and
// padding — that also remember where each value was written, so a rule broken later (found by
// find_problem_issue) is reported at the exact entry, e.g. "kernel[1]" or "input[3]".
#include <cstdint>
#include <string>
#include <vector>

#include "problem/conv_problem.hpp"
#include "spec/yaml_reader.hpp"

namespace kbench::spec {

// Where a field was written, to place messages about it.
struct FieldSite {
  std::string path;                     // "stride"
  SourcePosition position;              // the value (or, for a default, the workload mapping)
  std::vector<SourcePosition> entries;  // per-entry positions when written as a list, else empty
  int first_spatial_entry = 0;          // spatial dim d is entry d + this (2 for input: [N, C, ...])

  // The path and position for spatial dim `dim` (-1: the field as a whole).
  Located locate(int dim) const;
  // The path and position of list entry `entry` when written as a list, else the whole field.
  Located locate_entry(int entry) const;
};

// A defaulted field: reported at the mapping that omitted it.
FieldSite default_site(const MappingFields& mapping, std::string_view key);

struct InputShape {
  std::int64_t batch = 1;
  std::int64_t channels = 1;
  int spatial_rank = 0;
  Dims spatial;
};

// [N, C, spatial...] with 1 to 3 spatial dims.
InputShape read_input_shape(const SpecReader& reader, const Located& where, FieldSite& site);

// A single integer applied to every spatial dim, or a list with one integer per spatial dim, each in [min, 2^31-1].
Dims read_per_dim(const SpecReader& reader, const Located& where, int rank, std::int64_t min, Dims defaults,
                  FieldSite& site);

struct Padding {
  Dims before{{0, 0, 0}};
  Dims after{{0, 0, 0}};
};

// p (every side), [p0, p1, ...] (per dim, both sides) or a list whose entries may be [before, after] pairs.
Padding read_padding(const SpecReader& reader, const Located& where, int rank, FieldSite& site);

}  // namespace kbench::spec
