#pragma once
// Lets one header of index arithmetic serve the CPU tests and the CUDA kernels alike.
// lib/ never includes a CUDA header: this macro is the only concession to nvcc.
#if defined(__CUDACC__)
#define KBENCH_HD __host__ __device__ __forceinline__
#else
#define KBENCH_HD inline
#endif
