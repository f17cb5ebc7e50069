#pragma once
// fence.proxy.async (PTX ISA, "membar/fence"; sm_90): the one definition of the fence that orders a
// thread's generic-proxy writes to shared memory (st.shared, landed cp.async copies) before later
// async-proxy reads of them: a bulk copy out (bulk_copy_ops.cuh) or a wgmma operand (wgmma_ops.cuh,
// PTX ISA 9.7.15.4 "Async Proxy"). Each writer fences before the block barrier that hands the data
// to the async proxy; the other direction needs none (a completed wgmma or bulk copy is followed by an
// implicit fence). Device code only; tests/emu/shadow/ has the CPU version, which records the fence
// so that the emulation can check it was issued.
namespace kbench::gpu::conv {

__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

}  // namespace kbench::gpu::conv
