#pragma once
// The `depthwise2d` family: 2-D depthwise convolutions (multiplier 1), stride 1, dilation 1, square
// 3/5/7 kernels, fp32 FMA. The register kernel (depthwise2d_kernel.cuh) in one of two row store
// modes, or the bulk-copy kernel (depthwise2d_bulk_kernel.cuh, Hopper's cp.async.bulk) in one stage
// or pipelined: variants `depthwise2d/realigned_stores`, `/bulk_copies`, `/bulk_pipelined`.
#include "cuda/common/family_descriptor.hpp"
#include "cuda/depthwise/depthwise_bulk_index.hpp"
#include "cuda/depthwise/depthwise_index.hpp"

namespace kbench::gpu::conv {

inline Support depthwise2d_envelope(const ConvProblem& p) {
  namespace dw = depthwise;
  if (p.transposed()) return Support::no("depthwise2d: forward convolutions only");
  if (p.spatial_rank != 2) return Support::no("depthwise2d: 2-D only");
  if (p.groups != p.in_channels || p.out_channels != p.in_channels)
    return Support::no("depthwise2d: needs groups == in_channels == out_channels");
  const std::int64_t k = p.kernel[0];
  if (p.kernel[1] != k || (k != 3 && k != 5 && k != 7))
    return Support::no("depthwise2d: square 3x3, 5x5 or 7x7 kernels only");
  if (p.stride[0] != 1 || p.stride[1] != 1 || p.dilation[0] != 1 || p.dilation[1] != 1)
    return Support::no("depthwise2d: stride 1 and dilation 1 only");
  if (p.pad_before[1] != 0 && p.pad_before[1] != (k - 1) / 2)
    return Support::no("depthwise2d: left padding must be 0 or (kernel - 1) / 2");
  if (p.pad_before[0] > k - 1) return Support::no("depthwise2d: top padding must be below the kernel size");
  if (p.input[1] % 4 != 0) return Support::no("depthwise2d: input width must be a multiple of 4 (16-byte rows)");
  const dw::Params t = dw::make_params(dw::plane_params(p));
  if (t.blocks() > 0x7fffffff) return Support::no("depthwise2d: too many blocks for one launch");
  return Support::yes();
}

// The register kernel's tiling of a problem in the depthwise2d envelope, with its row stores (split
// unless forced).
inline depthwise::Params depthwise_params(const ConvProblem& p, std::optional<depthwise::StoreMode> stores) {
  depthwise::Params t = depthwise::make_params(depthwise::plane_params(p));
  t.stores = stores.value_or(depthwise::StoreMode::split);
  return t;
}

// The bulk-copy kernel's tiling of a problem in the depthwise2d envelope for a bulk store mode (one
// stage, or two when pipelined; its support: its alignment and shared-memory limits).
inline depthwise::BulkParamsFit depthwise_bulk_params(const ConvProblem& p, depthwise::StoreMode mode) {
  return depthwise::make_bulk_params(depthwise::plane_params(p), mode == depthwise::StoreMode::bulk_pipelined ? 2 : 1);
}

inline Support depthwise2d_choice_envelope(const KernelChoice& c, const ConvProblem& p, MathMode) {
  if (c.stores == depthwise::StoreMode::realigned && p.spatial_rank == 2 &&
      depthwise::store_width(p.output_extent(1)) != 2)
    return Support::no("depthwise2d: realigned stores change rows of 2 mod 4 floats only");
  if (Support s = depthwise2d_envelope(p); !s || !c.stores || !depthwise::is_bulk(*c.stores)) return s;
  return depthwise_bulk_params(p, *c.stores).support;
}

// The other store modes: realigned stores, then the bulk-copy kernel, one stage and pipelined.
inline void depthwise2d_variants(const KernelChoice& own, const ConvProblem&, std::vector<KernelChoice>& candidates) {
  for (const depthwise::StoreMode m :
       {depthwise::StoreMode::realigned, depthwise::StoreMode::bulk, depthwise::StoreMode::bulk_pipelined})
    candidates.push_back(KernelChoice{.family = own.family, .stores = m});
}

// The blocks a bulk-copy launch has: a block per strip, or (pipelined) persistent blocks, as many
// as stay resident, walking the strips.
inline std::int64_t depthwise_bulk_blocks(const depthwise::BulkParams& t, const LaunchDevice& device) {
  if (t.stages == 1) return t.total_strips();
  return device.bulk_resident_blocks > 0 ? std::min(t.total_strips(), device.bulk_resident_blocks) : 0;
}

// "depthwise2d/k3", "depthwise2d/k3_centred", with "/realigned_stores" when forced.
inline KernelDescription describe_depthwise_registers(const ConvProblem& p,
                                                      std::optional<depthwise::StoreMode> stores) {
  const depthwise::Params t = depthwise_params(p, stores);
  const bool realigned = t.stores == depthwise::StoreMode::realigned;
  return {fmt::format("depthwise2d/k{}{}{}", t.kernel, t.pad_left != 0 ? "_centred" : "",
                      realigned ? "/realigned_stores" : ""),
          {{"block", fmt::format("{} threads, {} rows x {} columns", depthwise::kThreads, depthwise::kStripRows,
                                 depthwise::kSegmentCols)},
           {"blocks", std::to_string(t.blocks())},
           {"store_width_floats", std::to_string(depthwise::store_width(t.out_w))},
           {"row_stores", depthwise::store_mode_name(t.stores)},
           {"launches", "1"}}};
}

// "depthwise2d/k3/bulk_copies", "depthwise2d/k3/bulk_pipelined".
inline KernelDescription describe_depthwise_bulk(const ConvProblem& p, depthwise::StoreMode mode,
                                                 const LaunchDevice& device) {
  const depthwise::BulkParams t = depthwise_bulk_params(p, mode).tiling;
  const std::int64_t blocks = depthwise_bulk_blocks(t, device);
  return {fmt::format("depthwise2d/k{}/{}", t.kernel, depthwise::store_mode_name(mode)),
          {{"block",
            fmt::format("{} threads, strips of {} rows x {} columns", depthwise::kBulkThreads, t.strip_rows, t.out_w)},
           {"blocks", blocks > 0 ? std::to_string(blocks) : "as many as stay resident (counted on the device)"},
           {"strips", std::to_string(t.total_strips())},
           {"stages", std::to_string(t.stages)},
           {"shared_memory_bytes", std::to_string(t.smem_bytes())},
           {"row_stores", depthwise::store_mode_name(mode)},
           {"launches", "1"}}};
}

inline KernelDescription describe_depthwise2d(const KernelChoice& c, const ConvProblem& p, const LaunchDevice& device) {
  if (c.stores && depthwise::is_bulk(*c.stores)) return describe_depthwise_bulk(p, *c.stores, device);
  return describe_depthwise_registers(p, c.stores);
}

// The bulk copies (cp.async.bulk) need compute capability 9.0 or later.
inline constexpr ArchitectureNeed kBulkCopyNeed{"bulk copies (cp.async.bulk)", "compute capability 9.0 or later",
                                                [](int major, int) { return major >= 9; }};

inline std::optional<ArchitectureNeed> depthwise2d_architecture_need(const KernelChoice& c) {
  if (c.stores && depthwise::is_bulk(*c.stores)) return kBulkCopyNeed;
  return std::nullopt;
}

inline constexpr FamilyDescriptor kDepthwise2dFamily{
    .family = Family::depthwise2d,
    .summary = "2-D depthwise, stride 1, square 3/5/7 kernels, rows through registers",
    .computes_in = MathMode::fp32,
    .knobs = kKnobStores,
    .runs_forward_equivalent = true,
    .envelope = depthwise2d_choice_envelope,
    .any_extent = false,
    .variants = depthwise2d_variants,
    .describe = describe_depthwise2d,
    .architecture_need = depthwise2d_architecture_need,
    .differs_on_device = same_on_every_device,
};

}  // namespace kbench::gpu::conv
