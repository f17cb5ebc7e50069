#pragma once
// Host entry points of the depthwise 2-D kernels (plain C++). The tilings must lie in the depthwise2d
// envelope (selection.hpp): the kernel size (and, for the register kernel, the left padding;
// for the bulk-copy kernel, the stages) selects a compiled instance.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/common/operands.hpp"
#include "cuda/depthwise/depthwise_bulk_index.hpp"
#include "cuda/depthwise/depthwise_index.hpp"

namespace kbench::gpu::conv::depthwise {

void launch_depthwise2d(const Params& t, const Operands& ops, cudaStream_t stream);

// The bulk-copy kernel needs more than the default 48 KB of shared memory: configure once on the
// device that will run it, before launching. Its tensors must be 16-byte aligned (cudaMalloc's are).
void configure_depthwise2d_bulk(const BulkParams& t);
// Blocks of `t`'s instance that fit on the current device at once (SMs x blocks per SM): the grid of
// the persistent, two-stage schedule. After configure_depthwise2d_bulk.
std::int64_t depthwise2d_bulk_resident_blocks(const BulkParams& t);
// `blocks` blocks walk t.total_strips() strips (a block per strip for one stage).
void launch_depthwise2d_bulk(const BulkParams& t, std::int64_t blocks, const Operands& ops, cudaStream_t stream);

}  // namespace kbench::gpu::conv::depthwise
