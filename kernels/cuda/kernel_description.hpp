#pragma once
// What a kernel choice runs for a problem, read from its descriptors alone: the name a result
// carries (`implementation`, e.g. "implicit_gemm_tf32/input_patch/96x256") and the facts it records
// (`properties`: GEMM shape, tile, shared memory, blocks, launches): describe_kernel in
// family_table.hpp, each family's part in its descriptor. Plain C++ with no CUDA include, so one
// function answers for the launches after a run (kernel_launch.cpp) and for `kbench plan` before one,
// on a machine without the device; test_cuda_description.cpp checks it on the CPU.
#include "cuda/family_table.hpp"
#include "cuda/kernel_selection.hpp"  // what callers of describe_kernel ask first: the variants, the default
