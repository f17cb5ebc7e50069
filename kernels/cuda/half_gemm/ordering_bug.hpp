#pragma once
// Ordering mistakes the emulation tests plant in the fp16/bf16 GEMM kernels
// (tests/emu/test_emulated_ordering.cpp), to show that the CPU emulation catches each one: the last
// template parameter of a kernel's body (half_gemm_body, half_wgmma_body). The __global__ kernels the
// entry points use pass `none`, so the device code is the same as without the parameter.
namespace kbench::gpu::conv::half_gemm {

enum class OrderingBug {
  none,
  early_refill,                // wgmma: wgmma.wait_group 2, so a stage is refilled under products still reading it
  products_before_landing,     // wgmma: the products of a chunk issued one cp.async group before it landed
  no_proxy_fence,              // wgmma: no fence.proxy.async between the stage's writes and the products
  no_barrier_before_products,  // wgmma: no __syncthreads between the chunk's copies and the products
  refill_before_barrier,       // mma.sync: the refill's cp.async before the __syncthreads that frees its stage
};

}  // namespace kbench::gpu::conv::half_gemm
