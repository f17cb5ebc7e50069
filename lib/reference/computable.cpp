#include "reference/computable.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench::reference {

namespace {

Support dimension_computable(const ConvProblem& p, int d) {
  const auto check = [d](const char* name, std::int64_t value, std::int64_t least) {
    if (value >= least) return Support::yes();
    return Support::no(fmt::format("{}[{}] is {}, must be at least {}", name, d, value, least));
  };
  for (const Support& s :
       {check("input", p.input[d], 1), check("kernel", p.kernel[d], 1), check("stride", p.stride[d], 1),
        check("dilation", p.dilation[d], 1), check("pad_before", p.pad_before[d], 0),
        check("pad_after", p.pad_after[d], 0), check("output_padding", p.output_padding[d], 0)})
    if (!s) return s;
  if (p.output_extent(d) < 1)
    return Support::no(fmt::format("output extent along spatial dimension {} is {}: the kernel does not fit the input",
                                   d, p.output_extent(d)));
  return Support::yes();
}

}  // namespace

Support computable(const ConvProblem& p) {
  if (p.spatial_rank < 1 || p.spatial_rank > kMaxSpatialRank)
    return Support::no(fmt::format("spatial rank is {}, must be 1, 2 or 3", p.spatial_rank));
  if (p.batch < 1) return Support::no(fmt::format("batch is {}, must be at least 1", p.batch));
  if (p.in_channels < 1) return Support::no(fmt::format("in_channels is {}, must be at least 1", p.in_channels));
  if (p.out_channels < 1) return Support::no(fmt::format("out_channels is {}, must be at least 1", p.out_channels));
  if (p.groups < 1) return Support::no(fmt::format("groups is {}, must be at least 1", p.groups));
  if (p.in_channels % p.groups != 0) return Support::no(fmt::format("groups ({}) must divide in_channels ({})", p.groups, p.in_channels));
  if (p.out_channels % p.groups != 0)
    return Support::no(fmt::format("groups ({}) must divide out_channels ({})", p.groups, p.out_channels));
  for (int d = 0; d < p.spatial_rank; ++d)
    if (Support s = dimension_computable(p, d); !s) return s;
  return Support::yes();
}

void require_computable(const ConvProblem& p) {
  if (const Support s = computable(p); !s)
    throw InputError("the CPU reference cannot compute this convolution: " + s.reason);
}

}  // namespace kbench::reference
