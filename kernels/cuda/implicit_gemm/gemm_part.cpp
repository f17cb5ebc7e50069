#include "cuda/implicit_gemm/gemm_part.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>

#include "cuda/implicit_gemm/igemm.hpp"
#include "cuda/implicit_gemm/igemm_patch_index.hpp"
#include "cuda/implicit_gemm/igemm_split_index.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu::conv::igemm {

namespace {

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& host) {
  DeviceBuffer<T> buffer(static_cast<std::int64_t>(host.size()));
  if (!host.empty()) KBENCH_CUDA_CHECK(cudaMemcpy(buffer.data(), host.data(), buffer.bytes(), cudaMemcpyHostToDevice));
  return buffer;
}

}  // namespace

GemmPart::GemmPart(const GemmConvParams& desc, const std::vector<GemmTap>& taps, GemmMath math)
    : desc_(desc), math_(math), tile_(choose_tile(desc)) {
  if (desc_.a_schedule == ASchedule::resident && desc_.resident_blocks < 1)
    throw std::invalid_argument("implicit GEMM: a resident-A descriptor needs its persistent block count");
  if (const Support s = split_support(desc_); desc_.splits > 1 && !s)
    throw std::invalid_argument("implicit GEMM: this descriptor cannot split its reduction: " + s.reason);
  smem_bytes_ = smem_layout(desc_).total_bytes;
  taps_ = upload(taps);
  if (desc_.order == KOrder::k_table) table_ = upload(make_k_table(desc_, taps));
  if (desc_.order == KOrder::input_patch) koffs_ = upload(make_patch_koffs(desc_, taps));
  a_packed_ = DeviceBuffer<float>(packed_a_size(desc_));
  if (desc_.splits > 1) partials_ = DeviceBuffer<float>(partial_floats(desc_));
  configure_gemm(tile_, math_, desc_.order, smem_bytes_);
}

GemmDeviceData GemmPart::device_data() const {
  return GemmDeviceData{taps_.data(), table_.data(), koffs_.data(), a_packed_.data(), partials_.data()};
}

void GemmPart::pack(const float* w, cudaStream_t stream) { launch_pack_a(desc_, math_, device_data(), w, stream); }

void GemmPart::run(const Operands& ops, const ZeroFillParams& zero, cudaStream_t stream) {
  launch_gemm(tile_, math_, desc_, device_data(), ops, zero, smem_bytes_, stream);
  if (desc_.splits > 1) launch_split_reduce(desc_, device_data(), ops, stream);
}

std::int64_t GemmPart::device_bytes(const GemmConvParams& desc, std::size_t tap_count) {
  const std::int64_t packed = packed_a_size(desc) * static_cast<std::int64_t>(sizeof(float));
  const std::int64_t k_rows = desc.chunks * kChunkRows;
  std::int64_t table = 0;
  if (desc.order == KOrder::k_table) table = k_rows * static_cast<std::int64_t>(sizeof(KEntry));
  if (desc.order == KOrder::input_patch) table = k_rows * static_cast<std::int64_t>(sizeof(std::int32_t));
  const std::int64_t partials = partial_floats(desc) * static_cast<std::int64_t>(sizeof(float));
  return packed + table + partials + static_cast<std::int64_t>(tap_count * sizeof(GemmTap));
}

}  // namespace kbench::gpu::conv::igemm
