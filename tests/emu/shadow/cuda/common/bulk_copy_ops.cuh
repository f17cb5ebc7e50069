#pragma once
// CPU version of kernels/cuda/common/bulk_copy_ops.cuh for the emulation tests (same names, same
// semantics; the checks and the late landing of copies are in cuda_emu.cpp).
#include <cstdint>

#include "cuda/common/proxy_fence.cuh"

namespace kbench::gpu::conv {

inline void mbarrier_init(std::uint64_t* barrier, unsigned arrivals) {
  ::kbench::emu::mbarrier_init(barrier, arrivals);
}

inline void fence_mbarrier_init() {}  // the emulation's barriers are visible to its copies at once

inline void mbarrier_arrive_expect_tx(std::uint64_t* barrier, unsigned bytes) {
  ::kbench::emu::mbarrier_arrive_expect_tx(barrier, bytes);
}

inline bool mbarrier_try_wait(std::uint64_t* barrier, unsigned parity) {
  return ::kbench::emu::mbarrier_try_wait(barrier, parity);
}

inline void mbarrier_wait(std::uint64_t* barrier, unsigned parity) {
  while (!mbarrier_try_wait(barrier, parity)) {
  }
}

inline void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, std::uint64_t* barrier) {
  ::kbench::emu::bulk_copy_to_shared(dst, src, bytes, barrier);
}

inline void bulk_copy_to_global(void* dst, const void* src, unsigned bytes) {
  ::kbench::emu::bulk_copy_to_global(dst, src, bytes);
}

inline void bulk_commit() { ::kbench::emu::bulk_commit(); }

template <int kPending>
inline void bulk_wait_read() {
  ::kbench::emu::bulk_wait_read(kPending);
}

}  // namespace kbench::gpu::conv
