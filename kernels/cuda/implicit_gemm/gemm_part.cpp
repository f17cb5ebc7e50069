#include "cuda/implicit_gemm/gemm_part.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include <fmt/format.h>

#include "cuda/implicit_gemm/igemm_launch.hpp"
#include "cuda/implicit_gemm/igemm_patch_index.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

namespace {

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& host) {
  DeviceBuffer<T> buffer(static_cast<std::int64_t>(host.size()));
  if (!host.empty())
    KBENCH_CUDA_CHECK(cudaMemcpy(buffer.data(), host.data(), buffer.bytes(), cudaMemcpyHostToDevice));
  return buffer;
}

// Resident A: one persistent block per SM (its shared memory allows no second), shared among the
// grid's row tiles and groups.
std::int64_t resident_blocks_per_row_tile(const GemmConvDesc& d) {
  int device = 0, sms = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const GemmGrid g = gemm_grid(d);
  return std::max<std::int64_t>(1, sms / (g.y * g.z));
}

}  // namespace

GemmPart::GemmPart(const GemmConvDesc& desc, const std::vector<GemmTap>& taps, GemmMath math)
    : desc_(desc), math_(math), tile_(choose_tile(desc)) {
  if (desc_.a_schedule == ASchedule::resident) desc_.resident_blocks = resident_blocks_per_row_tile(desc_);
  smem_bytes_ = smem_layout(desc_).total_bytes;
  taps_ = upload(taps);
  if (desc_.order == KOrder::k_table) table_ = upload(make_k_table(desc_, taps));
  if (desc_.order == KOrder::input_patch) koffs_ = upload(make_patch_koffs(desc_, taps));
  a_packed_ = DeviceBuffer<float>(packed_a_size(desc_));
  configure_gemm(tile_, math_, desc_.order, smem_bytes_);
}

GemmDeviceData GemmPart::device_data() const {
  return GemmDeviceData{taps_.data(), table_.data(), koffs_.data(), a_packed_.data()};
}

void GemmPart::pack(const float* w, cudaStream_t stream) {
  launch_pack_a(desc_, math_, device_data(), w, stream);
}

void GemmPart::run(const Operands& ops, const ZeroFillDesc& zero, cudaStream_t stream) {
  launch_gemm(tile_, math_, desc_, device_data(), ops,
              zero, smem_bytes_, stream);
}

std::string GemmPart::tile_name() const {
  const TileFacts f = tile_facts(tile_);
  return fmt::format("{}x{}", f.bm, f.bn);
}

std::string GemmPart::order_name() const { return igemm::order_name(desc_.order); }

std::int64_t GemmPart::device_bytes(const GemmConvDesc& desc, std::size_t tap_count) {
  const std::int64_t packed = packed_a_size(desc) * static_cast<std::int64_t>(sizeof(float));
  const std::int64_t k_rows = desc.chunks * kChunkRows;
  std::int64_t table = 0;
  if (desc.order == KOrder::k_table) table = k_rows * static_cast<std::int64_t>(sizeof(KEntry));
  if (desc.order == KOrder::input_patch) table = k_rows * static_cast<std::int64_t>(sizeof(std::int32_t));
  return packed + table + static_cast<std::int64_t>(tap_count * sizeof(GemmTap));
}

}  // namespace kbench::gpu::conv::igemm
