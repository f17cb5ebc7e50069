#pragma once
// What a kernel choice runs for a problem, read from its descriptors alone: the name a result
// carries (`implementation`, e.g. "implicit_gemm_tf32/input_patch/96x256") and the facts it records
// (`properties`: GEMM shape, tile, shared memory, blocks, launches). Plain C++ with no CUDA include,
// so one function answers for the plans after a run (kernel_plan.cpp) and for `kbench plan` before
// one, on a machine without the device; test_cuda_description.cpp checks it on the CPU.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cuda/direct/direct_tiled_index.hpp"
#include "cuda/implicit_gemm/igemm_split_index.hpp"
#include "cuda/kernel_selection.hpp"

namespace kbench::gpu::conv {

using Properties = std::vector<std::pair<std::string, std::string>>;

struct KernelDescription {
  std::string implementation;
  Properties properties;
};

// What a description needs of the device the kernel runs on. 0 where unknown (a plan for a GPU that
// is not present): the figures that depend on it are then described rather than counted.
struct LaunchDevice {
  int sms = 0;                            // resident A's persistent blocks (one per SM); split-K's splits
  std::int64_t bulk_resident_blocks = 0;  // depthwise2d/bulk_pipelined: blocks resident at once (occupancy)
};

namespace description_detail {

inline std::string count_or(std::int64_t n, const char* unknown) { return n > 0 ? std::to_string(n) : unknown; }

inline KernelDescription direct() {
  return {"direct", {{"threads", "one per output element (grid-stride)"}, {"launches", "1"}}};
}

// "depthwise2d/k3", "depthwise2d/k3_centred", with "/realigned_stores" when forced.
inline KernelDescription depthwise(const ConvProblem& p, std::optional<depthwise::StoreMode> stores) {
  const depthwise::Tiling t = depthwise_tiling(p, stores);
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

// The blocks a bulk-copy launch has: a block per strip, or (pipelined) persistent blocks, as many
// as stay resident, walking the strips.
inline std::int64_t depthwise_bulk_blocks(const depthwise::BulkTiling& t, const LaunchDevice& device) {
  if (t.stages == 1) return t.total_strips();
  return device.bulk_resident_blocks > 0 ? std::min(t.total_strips(), device.bulk_resident_blocks) : 0;
}

// "depthwise2d/k3/bulk_copies", "depthwise2d/k3/bulk_pipelined".
inline KernelDescription depthwise_bulk(const ConvProblem& p, depthwise::StoreMode mode, const LaunchDevice& device) {
  const depthwise::BulkTiling t = depthwise_bulk_plan(p, mode).tiling;
  return {fmt::format("depthwise2d/k{}/{}", t.kernel, depthwise::store_mode_name(mode)),
          {{"block", fmt::format("{} threads, strips of {} rows x {} columns", depthwise::kBulkThreads, t.strip_rows,
                                 t.out_w)},
           {"blocks", count_or(depthwise_bulk_blocks(t, device), "as many as stay resident (counted on the device)")},
           {"strips", std::to_string(t.total_strips())},
           {"stages", std::to_string(t.stages)},
           {"shared_memory_bytes", std::to_string(t.smem_bytes())},
           {"row_stores", depthwise::store_mode_name(mode)},
           {"launches", "1"}}};
}

// "direct_tiled/k3" for the unrolled square-kernel instances, "direct_tiled/k1x5" otherwise;
// transposed, "direct_tiled/transposed_k4x4_pairs" (at most 2 x 2 taps a phase, unrolled) or
// "direct_tiled/transposed_k5x5".
inline std::string direct_tiled_name(const direct_tiled::TiledDesc& d) {
  const int instance = direct_tiled::instance_kernel(d);
  if (instance == direct_tiled::kTransposedPairs)
    return fmt::format("direct_tiled/transposed_k{}x{}_pairs", d.kernel_h, d.kernel_w);
  if (instance == direct_tiled::kTransposedInstance)
    return fmt::format("direct_tiled/transposed_k{}x{}", d.kernel_h, d.kernel_w);
  if (instance != 0) return fmt::format("direct_tiled/k{}", d.kernel_h);
  return fmt::format("direct_tiled/k{}x{}", d.kernel_h, d.kernel_w);
}

inline KernelDescription direct_tiled(const ConvProblem& p) {
  const direct_tiled::TiledDesc d = direct_tiled::make_tiled_plan(p).desc;
  return {direct_tiled_name(d),
          {{"block", fmt::format("{} threads, {} rows x {} columns of output, {} per thread", direct_tiled::kThreads,
                                 d.tile_rows(), d.tile_cols(), d.per_thread)},
           {"input_windows", fmt::format("{} of {} x {} floats in shared memory (input channels of a group x depth "
                                         "taps)",
                                         d.stack(), d.window_rows, d.window_cols)},
           {"smem_bytes", std::to_string(d.smem_bytes())},
           {"out_channels_per_group", std::to_string(d.multiplier)},
           {"blocks", std::to_string(d.blocks())},
           {"launches", "1"}}};
}

// A GEMM descriptor as it launches on `device`: resident A sizes its persistent grid by the SMs, and
// a grid that would leave most of them idle splits its reduction (unless `split` is SplitK::none).
inline igemm::GemmConvDesc on_device(igemm::GemmConvDesc d, const LaunchDevice& device,
                                     igemm::SplitK split = igemm::SplitK::automatic) {
  if (d.a_schedule == igemm::ASchedule::resident && device.sms > 0)
    d.resident_blocks = igemm::resident_blocks_per_row_tile(d, device.sms);
  if (split == igemm::SplitK::automatic) d.splits = igemm::choose_splits(d, device.sms);
  return d;
}

inline igemm::SplitK split_of(const KernelChoice& c) { return c.split.value_or(igemm::SplitK::automatic); }

// "9 splits of 16 chunks (256 reduction rows) or more; 1605632 bytes of partial tiles summed by a
// second kernel", or why the reduction runs whole.
inline std::string split_summary(const igemm::GemmConvDesc& d, const LaunchDevice& device, igemm::SplitK split) {
  if (d.splits > 1)
    return fmt::format("{} splits of {} chunks ({} reduction rows) or more; {} bytes of partial tiles summed by a "
                       "second kernel",
                       d.splits, d.chunks / d.splits, d.chunks / d.splits * igemm::kChunkRows,
                       igemm::partial_floats(d) * 4);
  if (split == igemm::SplitK::none) return "none (no_split_k)";
  if (const std::string why = igemm::why_never_split(d); !why.empty()) return fmt::format("none ({})", why);
  if (device.sms == 0) return "where the grid leaves half the SMs idle (counted on the device)";
  return fmt::format("none ({} blocks for {} SMs)", igemm::gemm_blocks(d), device.sms);
}

inline std::string tile_name(const igemm::GemmConvDesc& d) {
  const igemm::TileFacts f = igemm::tile_facts(igemm::choose_tile(d));
  return fmt::format("{}x{}", f.bm, f.bn);
}

inline std::string patch_summary(const igemm::GemmConvDesc& d) {
  if (d.order != igemm::KOrder::input_patch) return "none";
  return fmt::format("{} channel(s) x {} rows x {} floats per block ({} bytes), {} column tiles per image",
                     d.cin_per_group, d.patch.rows, d.patch.stride, d.patch.floats * 4, d.patch.tiles_per_image);
}

inline std::string resident_summary(const igemm::GemmConvDesc& d) {
  if (d.a_schedule != igemm::ASchedule::resident) return "streamed_a (every block reads its A chunks from L2)";
  const std::int64_t columns = igemm::column_tiles(d, igemm::tile_facts(igemm::choose_tile(d)).bn);
  if (d.resident_blocks == 0)
    return fmt::format("resident_a: persistent blocks per row tile (one per SM, counted on the device) walk {} "
                       "column tiles, A in shared memory",
                       columns);
  return fmt::format("resident_a: {} persistent block(s) per row tile walk {} column tiles, A in shared memory",
                     igemm::gemm_grid(d).x, columns);
}

// "implicit_gemm_tf32/channel_blocks/128x256", with "/resident_a" when A stays in shared memory,
// "/wgmma" on Hopper's warpgroup instruction.
inline KernelDescription forward_gemm(const KernelChoice& choice, const ConvProblem& p3, const LaunchDevice& device) {
  const igemm::GemmConvDesc d = on_device(forward_gemm_desc(p3, choice), device, split_of(choice));
  const bool wgmma = d.mma == igemm::MmaKind::wgmma;
  return {fmt::format("{}/{}/{}{}{}{}", family_name(choice.family), igemm::order_name(d.order), tile_name(d),
                      d.a_schedule == igemm::ASchedule::resident ? "/resident_a" : "", wgmma ? "/wgmma" : "",
                      d.splits > 1 ? "/split_k" : ""),
          {{"gemm", fmt::format("M {} x N {} x K {} ({} taps), {} group(s)", d.rows, d.columns, d.cin_per_group * d.taps,
                                d.taps, d.groups)},
           {"tile", fmt::format("{}x{}", tile_name(d), igemm::kChunkRows)},
           {"reduction_order", igemm::order_name(d.order)},
           {"input_patch", patch_summary(d)},
           {"a_schedule", resident_summary(d)},
           {"tensor_instruction", gemm_math(choice.family) == igemm::GemmMath::ffma ? "none (FFMA)"
                                  : wgmma                                           ? "wgmma.mma_async m64n96k8 (sm_90a)"
                                                                                    : "mma.sync m16n8k8"},
           {"split_k", split_summary(d, device, split_of(choice))},
           {"threads_per_block", std::to_string(igemm::tile_facts(igemm::choose_tile(d)).threads)},
           {"smem_bytes", std::to_string(igemm::smem_layout(d).total_bytes)},
           {"launches", d.splits > 1 ? "3 (pack weights, GEMM, split-K reduction)" : "2 (pack weights, GEMM)"}}};
}

// "transposed_phase_tf32/channel_blocks/96x128" (the first GEMM's tile; "mixed" when the phase GEMMs
// take different reduction orders), "/no_fill_blocks" when forced; ".../bias_only" when no tap lands.
inline KernelDescription transposed_phase(const KernelChoice& choice, const ConvProblem& p3,
                                          const LaunchDevice& device) {
  const FillBlocks fill = choice.fill.value_or(FillBlocks::trailing);
  const std::vector<PhaseGemm> gemms = transposed_gemms(p3, fill);
  const ZeroFillDesc zero = make_zero_fill_desc(p3);
  const std::string_view family = family_name(choice.family);
  if (gemms.empty())
    return {fmt::format("{}/bias_only", family),
            {{"phase_gemms", "0"},
             {"computed_outputs", fmt::format("0 of {} (0.0%)", p3.output_elements())},
             {"launches", "1"}}};
  std::set<std::string> orders;
  std::int64_t computed = 0;
  std::int64_t launches = 0;
  bool split = false;
  Properties props;
  props.emplace_back("phase_gemms", std::to_string(gemms.size()));
  props.emplace_back("computed_outputs", "");  // filled in below, once counted
  for (std::size_t i = 0; i < gemms.size(); ++i) {
    const igemm::GemmConvDesc d = on_device(gemms[i].desc, device, split_of(choice));
    orders.insert(igemm::order_name(d.order));
    computed += d.columns * d.rows * d.groups;
    launches += d.splits > 1 ? 3 : 2;  // pack, GEMM, and split-K's reduction
    split = split || d.splits > 1;
    if (i < 8)
      props.emplace_back(fmt::format("gemm_{}", i),
                         fmt::format("M {} x N {} x K {} ({} taps), {}, tile {}, {} B smem{}", d.rows, d.columns,
                                     d.cin_per_group * d.taps, d.taps, igemm::order_name(d.order), tile_name(d),
                                     igemm::smem_layout(d).total_bytes,
                                     d.splits > 1 ? fmt::format(", split_k {}", d.splits) : ""));
  }
  const std::int64_t total = p3.output_elements();
  props[1].second = fmt::format("{} of {} ({:.1f}%)", computed, total,
                                100.0 * static_cast<double>(computed) / static_cast<double>(total));
  if (!zero_fill_has_work(zero)) {
    props.emplace_back("zero_fill", "none (every output lies on a tapped phase)");
  } else {
    const igemm::GemmConvDesc first = on_device(gemms.front().desc, device);
    props.emplace_back("zero_fill", fmt::format("the untapped outputs of {} planes, by the first GEMM's {} blocks and "
                                                "{} fill-only blocks after them",
                                                zero.planes, igemm::gemm_grid(first).x - first.fill_blocks,
                                                first.fill_blocks));
  }
  props.emplace_back("launches", std::to_string(launches));
  return {fmt::format("{}/{}/{}{}{}", family, orders.size() == 1 ? *orders.begin() : "mixed",
                      tile_name(gemms.front().desc), fill == FillBlocks::none ? "/no_fill_blocks" : "",
                      split ? "/split_k" : ""),
          std::move(props)};
}

// A launch count ("2 (pack weights, GEMM)", "1") with the forward weights' launch first:
// "3 (forward weights, pack weights, GEMM)", "2 (forward weights, kernel)".
inline std::string with_forward_weights_launch(const std::string& launches) {
  std::int64_t n = 0;
  const auto [end, error] = std::from_chars(launches.data(), launches.data() + launches.size(), n);
  if (error != std::errc{}) return launches;
  const std::string_view rest(end, static_cast<std::size_t>(launches.data() + launches.size() - end));
  if (rest.starts_with(" (")) return fmt::format("{} (forward weights, {}", n + 1, rest.substr(2));
  return fmt::format("{} (forward weights, {})", n + 1, n == 1 ? "kernel" : "kernels");
}

// A stride-1 transposed convolution on a forward kernel (forward_equivalent.hpp): the forward
// kernel's name with "/as_forward", its facts, the forward padding and the weights' launch.
inline KernelDescription as_forward(KernelDescription d, const ConvProblem& forward) {
  d.implementation += "/as_forward";
  for (auto& [key, value] : d.properties)
    if (key == "launches") value = with_forward_weights_launch(value);
  d.properties.emplace_back("as_forward",
                            fmt::format("stride-1 transposed convolution run as the forward one it equals: kernel "
                                        "flipped, channel axes swapped ({} weights, rewritten by a launch of their "
                                        "own), padding {}",
                                        forward.weight_elements(), padding_text(forward)));
  return d;
}

}  // namespace description_detail

// Whether no_split_k runs anything but its family's default on a device of `sms` SMs: where the
// default would not split any of its GEMMs there, it is the default under another name, which
// `cuda:all`, the exhaustive search and the plans leave out. yes for every other choice, and where
// the SMs are unknown (0).
inline Support split_variant_on_device(const KernelChoice& choice, const ConvProblem& problem, int sms) {
  if (choice.split != igemm::SplitK::none || sms <= 0) return Support::yes();
  KernelChoice automatic = choice;
  automatic.split.reset();
  const ConvProblem p3 = reference::as_rank3(problem_for(choice.family, problem));
  const LaunchDevice device{sms, 0};
  if (is_implicit_gemm(choice.family)) {
    if (description_detail::on_device(forward_gemm_desc(p3, automatic), device).splits > 1) return Support::yes();
  } else {
    for (const PhaseGemm& g : transposed_gemms(p3, choice.fill.value_or(FillBlocks::trailing)))
      if (description_detail::on_device(g.desc, device).splits > 1) return Support::yes();
  }
  return Support::no(fmt::format("no_split_k: the default does not split the reduction on a device of {} SMs (its grid "
                                 "leaves fewer than half of them idle)",
                                 sms));
}

// `choice` must lie in its envelope for `problem` (choice_envelope).
inline KernelDescription describe_kernel(const KernelChoice& choice, const ConvProblem& problem,
                                         const LaunchDevice& device) {
  namespace dd = description_detail;
  const Family family = choice.family;
  if (const std::optional<ConvProblem> forward = forward_problem_for(family, problem))
    return dd::as_forward(describe_kernel(choice, *forward, device), *forward);
  if (family == Family::direct) return dd::direct();
  if (family == Family::depthwise2d && choice.stores && depthwise::is_bulk(*choice.stores))
    return dd::depthwise_bulk(problem, *choice.stores, device);
  if (family == Family::depthwise2d) return dd::depthwise(problem, choice.stores);
  if (family == Family::direct_tiled) return dd::direct_tiled(problem);
  if (is_implicit_gemm(family)) return dd::forward_gemm(choice, reference::as_rank3(problem), device);
  return dd::transposed_phase(choice, reference::as_rank3(problem), device);
}

}  // namespace kbench::gpu::conv
