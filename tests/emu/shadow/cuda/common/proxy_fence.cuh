#pragma once
// CPU version of kernels/cuda/common/proxy_fence.cuh: the fence is recorded per thread, and a copy
// out of shared memory or a wgmma checks that every thread fenced before the last block barrier
// (cuda_emu.hpp).
namespace kbench::gpu::conv {

inline void fence_proxy_async_shared() { ::kbench::emu::fence_proxy_async_shared(); }

}  // namespace kbench::gpu::conv
