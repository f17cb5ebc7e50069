#pragma once
// The device side of one implicit GEMM: its tap list and k table uploaded, its packed-A buffers (and
// split-K's workspace), its kernel instance configured for the shared memory it needs. Forward convolutions have one; a
// transposed convolution one per tapped phase combination.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/common/operands.hpp"
#include "cuda/implicit_gemm/igemm_params.hpp"
#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/implicit_gemm/igemm.hpp"
#include "cuda/transposed/zero_fill_index.hpp"
#include "runtime/device_buffer.hpp"

namespace kbench::gpu::conv::igemm {

class GemmPart {
 public:
  // `desc` as it launches: a resident-A descriptor with its resident_blocks counted for the device,
  // the reduction's splits chosen for it (gemm_on_device, implicit_gemm/gemm_family_common.hpp).
  GemmPart(const GemmConvParams& desc, const std::vector<GemmTap>& taps, GemmMath math);

  // Packs this run's weights into A (kernel launch on `stream`).
  void pack(const float* w, cudaStream_t stream);
  // The GEMM, and under split-K its reduction; `zero` (planes > 0) also writes a transposed
  // convolution's untapped planes and rows.
  void run(const Operands& ops, const ZeroFillParams& zero, cudaStream_t stream);

  // Device bytes a part for `desc` allocates.
  static std::int64_t device_bytes(const GemmConvParams& desc, std::size_t tap_count);

 private:
  GemmDeviceData device_data() const;

  GemmConvParams desc_;
  GemmMath math_;
  TileKind tile_;
  std::size_t smem_bytes_ = 0;
  DeviceBuffer<GemmTap> taps_;
  DeviceBuffer<KEntry> table_;
  DeviceBuffer<std::int32_t> koffs_;
  DeviceBuffer<float> a_packed_;
  DeviceBuffer<float> partials_;
};

}  // namespace kbench::gpu::conv::igemm
