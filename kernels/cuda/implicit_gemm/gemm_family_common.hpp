#pragma once
// What the two GEMM kinds (the forward implicit GEMMs and the transposed phase GEMMs) share in their
// descriptors: the limits every GEMM launch must meet, and a GEMM as it launches on a device (resident
// A's persistent grid, split-K's splits) with the facts a description prints of it.
#include <cstdint>
#include <string>
#include <string_view>

#include "cuda/common/family_descriptor.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm_resident_index.hpp"
#include "cuda/implicit_gemm/igemm_split_index.hpp"

namespace kbench::gpu::conv {

// Limits every GEMM descriptor must meet: the grid, the shared memory (which also bounds the tap
// list, k table or patch offsets it keeps there: long kernels), 32-bit chunk counts.
inline Support gemm_params_fit(const igemm::GemmConvParams& d, std::string_view family) {
  const igemm::TileFacts f = igemm::tile_facts(igemm::choose_tile(d));
  if (igemm::gemm_grid(d).x > 0x7fffffff || d.rows_padded / f.bm > 65535 || d.groups > 65535)
    return Support::no(fmt::format("{}: the problem needs more blocks than one launch has", family));
  if (d.chunks * igemm::kChunkRows > 0x7fffffff) return Support::no(fmt::format("{}: reduction too long", family));
  if (d.order == igemm::KOrder::input_patch && d.batch * d.patch.tiles_per_image > 0x7fffffff)
    return Support::no(fmt::format("{}: the problem needs more blocks than one launch has", family));
  if (igemm::smem_layout(d).total_bytes > igemm::kMaxSmemBytes)
    return Support::no(fmt::format("{}: needs more shared memory than a block has", family));
  return Support::yes();
}

// A GEMM descriptor as it launches on `device`: resident A sizes its persistent grid by the SMs, and
// a grid that would leave most of them idle splits its reduction (unless `split` is SplitK::none).
inline igemm::GemmConvParams gemm_on_device(igemm::GemmConvParams d, const LaunchDevice& device,
                                          igemm::SplitK split = igemm::SplitK::automatic) {
  if (d.a_schedule == igemm::ASchedule::resident && device.sms > 0)
    d.resident_blocks = igemm::resident_blocks_per_row_tile(d, device.sms);
  if (split == igemm::SplitK::automatic) d.splits = igemm::choose_splits(d, device.sms);
  return d;
}

inline igemm::SplitK split_of(const KernelChoice& c) { return c.split.value_or(igemm::SplitK::automatic); }

// "9 splits of 16 chunks (256 reduction rows) or more; 1605632 bytes of partial tiles summed by a
// second kernel", or why the reduction runs whole.
inline std::string split_summary(const igemm::GemmConvParams& d, const LaunchDevice& device, igemm::SplitK split) {
  if (d.splits > 1)
    return fmt::format(
        "{} splits of {} chunks ({} reduction rows) or more; {} bytes of partial tiles summed by a "
        "second kernel",
        d.splits, d.chunks / d.splits, d.chunks / d.splits * igemm::kChunkRows, igemm::partial_floats(d) * 4);
  if (split == igemm::SplitK::none) return "none (no_split_k)";
  if (const Support s = igemm::ever_splits(d); !s) return fmt::format("none ({})", s.reason);
  if (device.sms == 0) return "where the grid leaves half the SMs idle (counted on the device)";
  return fmt::format("none ({} blocks for {} SMs)", igemm::gemm_blocks(d), device.sms);
}

inline std::string tile_name(const igemm::GemmConvParams& d) {
  const igemm::TileFacts f = igemm::tile_facts(igemm::choose_tile(d));
  return fmt::format("{}x{}", f.bm, f.bn);
}

// no_split_k where the default would not split any of the GEMMs on a device of `sms` SMs: the
// default under another name, which `cuda:all`, the exhaustive search and `kbench plan` leave out.
inline Support no_split_differs(bool default_splits, int sms) {
  if (default_splits) return Support::yes();
  return Support::no(
      fmt::format("no_split_k: the default does not split the reduction on a device of {} SMs (its grid "
                  "leaves fewer than half of them idle)",
                  sms));
}

}  // namespace kbench::gpu::conv
