#pragma once
// What a kernel family of the cuda backend says about itself, as the CUTLASS library's operations
// do: which problems it implements (its envelope: yes, or no with the reason `kbench plan` prints),
// its variants, the facts a result records of it, and what it needs of the device. One descriptor per
// family, in the family's folder; registry.hpp lists them, and the central code loops over that
// table. Plain C++ with no CUDA include: the unit tests ask these questions on the CPU. The launch
// side (launches, device bytes) is in kernel_launch.hpp, per family in its folder too.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/support.hpp"
#include "core/types.hpp"
#include "cuda/common/kernel_choice.hpp"
#include "problem/conv_problem.hpp"
#include "problem/problem_validation.hpp"

namespace kbench::gpu::conv {

using Properties = std::vector<std::pair<std::string, std::string>>;

// What a choice runs: the name a result carries (`implementation`) and the facts it records.
struct KernelDescription {
  std::string implementation;
  Properties properties;
};

// What a description needs of the device the kernel runs on. 0 where unknown (`kbench plan` for a GPU
// that is not present): the figures that depend on it are then described rather than counted.
struct LaunchDevice {
  int sms = 0;                            // resident A's persistent blocks (one per SM); split-K's splits
  std::int64_t bulk_resident_blocks = 0;  // depthwise2d/bulk_pipelined: blocks resident at once (occupancy)
};

// An instruction set a choice needs beyond what every device this build targets has.
struct ArchitectureNeed {
  std::string_view feature;  // "wgmma"
  std::string_view needs;    // "a compute capability 9.0 device (its kernel is built for sm_90a)"
  bool (*accepts)(int major, int minor);
};

// A set of element types, and of memory layouts, as a descriptor's bits.
constexpr unsigned dtype_bit(DType t) { return 1u << static_cast<unsigned>(t); }
constexpr unsigned layout_bit(Layout l) { return 1u << static_cast<unsigned>(l); }
inline constexpr unsigned kAllDTypes = dtype_bit(DType::fp32) | dtype_bit(DType::fp16) | dtype_bit(DType::bf16);
inline constexpr unsigned kAllLayouts = layout_bit(Layout::nchw) | layout_bit(Layout::nhwc);
// A set of passes (problem/conv_pass.hpp), as a descriptor's bits.
constexpr unsigned pass_bit(Pass p) { return 1u << static_cast<unsigned>(p); }

struct FamilyDescriptor {
  Family family;
  // What it runs, in a few words: the backend's description (`kbench list`) joins them, after the name.
  std::string_view summary;
  // What it implements: the passes it computes (pass_bit of each), the element types of its tensors
  // (dtype_bit of each), the memory layouts it reads and writes them in (layout_bit of each), and the
  // math its products round to. A forward family also runs backward_data problems, as the forward
  // pass of their backward_data_problem (passes/pass_problem.hpp; a transposed convolution is an op,
  // not a pass). The fp32 families read NCHW only.
  unsigned passes = pass_bit(Pass::forward);
  unsigned dtypes = dtype_bit(DType::fp32);
  unsigned layouts = layout_bit(Layout::nchw);
  MathMode computes_in = MathMode::fp32;
  // The kinds of knob its variants may force (Knob bits; kVariantKnobs): the `cuda:NAME/...` parts
  // it takes, each optional, in that table's order.
  unsigned knobs = 0;
  // Takes a stride-1 transposed convolution as the forward convolution it equals (forward_equivalent.hpp).
  bool runs_forward_equivalent = true;
  // The family's own envelope for a problem it runs as it is, after the checks every family shares
  // (problem_supported, the knobs, the math, fast_path_extents unless `any_extent`).
  Support (*envelope)(const KernelChoice& choice, const ConvProblem& problem, MathMode math);
  bool any_extent = false;  // 64-bit throughout: takes extents of 2^30 and more
  // The variants to offer beyond the family's own entry `own` (its defaults), in their order, for the
  // problem as the family runs it; the central code keeps those in their envelope.
  void (*variants)(const KernelChoice& own, const ConvProblem& runs, std::vector<KernelChoice>& candidates);
  // What the choice runs for a problem in its envelope.
  KernelDescription (*describe)(const KernelChoice& choice, const ConvProblem& problem, const LaunchDevice& device);
  // What the choice's instructions need; nullopt when any device this build targets runs it.
  std::optional<ArchitectureNeed> (*architecture_need)(const KernelChoice& choice);
  // Whether the choice runs anything but the family's default on a device of `sms` SMs (no_split_k
  // where the default would not split); yes where the SMs are unknown (0).
  Support (*differs_on_device)(const KernelChoice& choice, const ConvProblem& problem, int sms);
};

// --- Shared by the descriptors -------------------------------------------------------------------

inline Support always_yes(const KernelChoice&, const ConvProblem&, MathMode) { return Support::yes(); }
inline void no_more_variants(const KernelChoice&, const ConvProblem&, std::vector<KernelChoice>&) {}
inline std::optional<ArchitectureNeed> no_architecture_need(const KernelChoice&) { return std::nullopt; }
inline Support same_on_every_device(const KernelChoice&, const ConvProblem&, int) { return Support::yes(); }

// The wgmma kernels are built for sm_90a, whose image loads on compute capability 9.0 devices only.
inline constexpr ArchitectureNeed kWgmmaNeed{"wgmma",
                                             "a compute capability 9.0 device (its kernel is built for sm_90a)",
                                             [](int major, int minor) { return major == 9 && minor == 0; }};

// Whether the reference can compute the problem (what the cuda backend's families need of it beyond
// their own envelopes).
inline Support reference_computable(const ConvProblem& p) { return validate_problem(p); }

// A forward problem's padding per dimension, before+after: "2+2 x 1+1".
inline std::string padding_text(const ConvProblem& p) {
  std::string text;
  for (int d = 0; d < p.spatial_rank; ++d)
    text += fmt::format("{}{}+{}", d > 0 ? " x " : "", p.pad_before[d], p.pad_after[d]);
  return text;
}

// The fast paths keep coordinates, offsets and extents below 2^30 so their 32-bit coordinate
// arithmetic (and its unsigned bounds tests) cannot overflow; element counts and offsets are 64-bit
// throughout. Longer dimensions (a spec allows up to 2^31 - 1) run on `direct`.
inline constexpr std::int64_t kMaxExtent = std::int64_t{1} << 30;

inline Support fast_path_extents(const ConvProblem& p) {
  for (int d = 0; d < p.spatial_rank; ++d) {
    const std::int64_t reach = p.dilation[d] * (p.kernel[d] - 1) + p.pad_before[d] + p.pad_after[d];
    if (p.input[d] >= kMaxExtent || p.output_extent(d) >= kMaxExtent || reach >= kMaxExtent)
      return Support::no(fmt::format("spatial dimension {} reaches 2^30 or more (only `direct` takes that)", d));
  }
  return Support::yes();
}

}  // namespace kbench::gpu::conv
