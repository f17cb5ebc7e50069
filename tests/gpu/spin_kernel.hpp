#pragma once
// A kernel that keeps every SM busy for a given number of its own clock cycles: a known amount
// of device time for testing the clock probe and the event timing.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbench::gpu::testing {

void launch_spin(std::int64_t cycles, cudaStream_t stream);

// A kernel that writes through a null pointer: a sticky cudaErrorIllegalAddress, unchecked (the test
// decides who meets it first). It poisons the process's context: run it in a process of its own.
void launch_illegal_write(cudaStream_t stream);

}  // namespace kbench::gpu::testing
