#pragma once
// Thin wrappers over Hopper's bulk copies (sm_90: the TMA unit, without a tensor map) and the
// shared-memory barriers (mbarrier) that count their bytes. Device code only. tests/emu/shadow/ has a
// CPU version of this header with the same interface, under which the kernels run in the CPU tests.
//
// The protocol a kernel follows (PTX ISA, "cp.async.bulk" and "mbarrier"):
//   load   one thread inits a barrier for one arrival and fences the init, a block barrier makes it
//          visible; one thread arrives with the bytes to expect, then any threads issue copies that
//          complete those bytes on the barrier; every reader waits for phase 0 to complete.
//   store  every thread that wrote the shared source fences its writes to the async proxy, a block
//          barrier follows, one thread issues the copy, commits it, and waits until the copy has read
//          shared memory before the block may exit.
// Addresses and sizes of bulk copies are multiples of 16 bytes.
#include <cstdint>

#include "cuda/common/device_ops.cuh"
#include "cuda/common/proxy_fence.cuh"  // fence_proxy_async_shared, before a copy out

namespace kbench::gpu::conv {

__device__ __forceinline__ void mbarrier_init(std::uint64_t* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
}

// Makes the barrier's initialisation visible to the async proxy (the copies that complete on it).
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// One arrival that also raises the bytes the current phase waits for.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(bytes)
               : "memory");
}

// Whether the phase of parity `parity` has completed (the hardware may suspend the thread a while first).
__device__ __forceinline__ bool mbarrier_try_wait(std::uint64_t* barrier, unsigned parity) {
  unsigned ready = 0;
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%1], %2;\n"
      "selp.u32 %0, 1, 0, done;\n"
      "}\n"
      : "=r"(ready)
      : "r"(shared_address(barrier)), "r"(parity)
      : "memory");
  return ready != 0;
}

// A phase that never completes (copies whose bytes fall short of the expected count, a fault in the
// copy engine) would hang the kernel, and the kbench process with it: every result it has not yet
// written would be lost when the process is killed. Past this long a waiting thread traps instead,
// so the launch fails with a CUDA error that kbench records for this one result. A real wait lasts
// microseconds (milliseconds under compute-sanitizer).
inline constexpr std::uint64_t kMbarrierWaitLimitNs = 4'000'000'000ull;

__device__ __forceinline__ std::uint64_t global_timer_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(ns));
  return ns;
}

__device__ __forceinline__ void mbarrier_wait(std::uint64_t* barrier, unsigned parity) {
  if (mbarrier_try_wait(barrier, parity)) return;
  const std::uint64_t started = global_timer_ns();
  while (!mbarrier_try_wait(barrier, parity))
    if (global_timer_ns() - started > kMbarrierWaitLimitNs) __trap();
}

// `bytes` from global `src` to shared `dst`, completing `bytes` of the barrier's current phase.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes,
                                                    std::uint64_t* barrier) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   shared_address(dst)),
               "l"(src), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
}

// `bytes` from shared `src` to global `dst`, in the thread's open bulk group.
__device__ __forceinline__ void bulk_copy_to_global(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst), "r"(shared_address(src)),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }

// Wait until at most `kPending` committed bulk groups still have to read their shared source.
template <int kPending>
__device__ __forceinline__ void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
}

}  // namespace kbench::gpu::conv
