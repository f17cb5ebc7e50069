#include "spin_kernel.hpp"

#include "runtime/cuda_check.hpp"

namespace kbench::gpu::testing {

namespace {

__global__ void spin_kernel(std::int64_t cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

void launch_spin(std::int64_t cycles, cudaStream_t stream) {
  int device = 0;
  int sms = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  spin_kernel<<<static_cast<unsigned int>(sms), 32, 0, stream>>>(cycles);
  KBENCH_CUDA_CHECK_LAUNCH();
}

}  // namespace kbench::gpu::testing

namespace kbench::gpu::testing {

namespace {

__global__ void write_through_null(int* pointer) { pointer[threadIdx.x] = 1; }

}  // namespace

void launch_illegal_write(cudaStream_t stream) {
  write_through_null<<<1, 32, 0, stream>>>(nullptr);
  (void)cudaGetLastError();  // the launch itself succeeds; the fault comes when the kernel runs
}

}  // namespace kbench::gpu::testing
