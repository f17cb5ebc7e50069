#pragma once
// The `direct` family: one thread per output element, fp32 FMA, 64-bit indices throughout, so it
// runs every valid problem as it is (1-D to 3-D, groups, stride, padding, dilation, transposed with
// output_padding, bias), in every element type (fp32 accumulation, the output rounded once) and
// layout. The fallback every other family's envelope leaves a problem to.
#include "cuda/common/family_descriptor.hpp"

namespace kbench::gpu::conv {

inline KernelDescription describe_direct(const KernelChoice&, const ConvProblem&, const LaunchDevice&) {
  return {"direct", {{"threads", "one per output element (grid-stride)"}, {"launches", "1"}}};
}

inline constexpr FamilyDescriptor kDirectFamily{
    .family = Family::direct,
    .summary = "one thread per output, fp32 FMA, every problem, dtype and layout",
    .dtypes = kAllDTypes,
    .layouts = kAllLayouts,
    .computes_in = MathMode::fp32,
    .knobs = 0,
    .runs_forward_equivalent = false,  // it takes the transposed problem as it is
    .envelope = always_yes,
    .any_extent = true,
    .variants = no_more_variants,
    .describe = describe_direct,
    .architecture_need = no_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
